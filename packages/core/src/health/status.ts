import type { z } from "zod";
import { shareUrl } from "../artifact/internal.js";
import type { ServiceContext } from "../context.js";
import { countDrops, windowStart } from "../drops/list.js";
import { DROP_WINDOW_DAYS } from "../drops/schemas.js";
import { visibleOwners } from "../identity/authorize.js";
import { inboxLine, summarizeInbox } from "../inbox/summary.js";
import { rollupLine, totalsByCategory } from "./rollup.js";
import type { Status } from "./schemas.js";

function ago(from: Date, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"} ago`;
  if (s < 60) return "just now";
  if (s < 3600) return unit(Math.floor(s / 60), "minute");
  if (s < 86_400) return unit(Math.floor(s / 3600), "hour");
  return unit(Math.floor(s / 86_400), "day");
}

/** status: the newest unexpired receipt the caller can read, the drop rollup of the window, and the inbox. */
export async function readStatus(ctx: ServiceContext): Promise<z.output<typeof Status>> {
  const now = ctx.now();
  const owners = JSON.stringify(visibleOwners(ctx.principal));
  const [last] = await ctx.store.query<{ id: string; title: string; owner: string; created_at: Date | string; share_token: string }>(
    `select id, title, owner, created_at, share_token from artifacts
      where owner in (select jsonb_array_elements_text($1::jsonb)) and metadata is not null
        and (retained or expires_at is null or expires_at > $2)
      order by id desc limit 1`,
    [owners, now.toISOString()],
  );
  const counts = totalsByCategory(await countDrops(ctx.store, visibleOwners(ctx.principal), windowStart(now, DROP_WINDOW_DAYS)));
  const inbox = await summarizeInbox(ctx.store, visibleOwners(ctx.principal), now, ctx.principal.user.name);
  const lastReceipt = last
    ? { id: last.id, title: last.title, owner: last.owner, created_at: new Date(last.created_at).toISOString(), url: shareUrl(ctx.config, last.share_token) }
    : null;
  const lastLine = lastReceipt
    ? `Last receipt: ${lastReceipt.title} (${lastReceipt.owner}, ${ago(new Date(lastReceipt.created_at), now)}, ${lastReceipt.id})`
    : "Last receipt: none yet";
  return {
    last_receipt: lastReceipt,
    drops: { window_days: DROP_WINDOW_DAYS, counts },
    inbox,
    lines: [lastLine, rollupLine(counts, DROP_WINDOW_DAYS), inboxLine(inbox)],
  };
}
