import { decodeCursor, encodeCursor } from "../cursor.js";
import type { z } from "zod";
import type { ServiceContext } from "../context.js";
import { visibleOwners } from "../identity/authorize.js";
import { LIMITS } from "../limits.js";
import { ARTIFACT_COLUMNS, type ArtifactRow, toArtifacts } from "./internal.js";
import type { ArtifactList, ArtifactSearchInput } from "./schemas.js";

/**
 * Lists artifacts the caller owns or shares through a team, newest first, filtered by
 * tag and full-text query. Expired artifacts are left out. Keyset pagination on the
 * time-ordered id, so pages stay stable while new artifacts arrive.
 */
export async function searchArtifacts(
  ctx: ServiceContext,
  input: z.output<typeof ArtifactSearchInput>,
): Promise<z.output<typeof ArtifactList>> {
  const limit = input.limit ?? LIMITS.pageDefault;
  const after = input.cursor ? decodeCursor(input.cursor, "art") : null;
  const q = input.q && input.q.length > 0 ? input.q : null;
  const rows = await ctx.store.query<ArtifactRow>(
    `select ${ARTIFACT_COLUMNS} from artifacts
      where owner in (select jsonb_array_elements_text($1::jsonb))
        and (retained or expires_at is null or expires_at > $2)
        and ($3::text is null or tags ? $3::text)
        and ($4::text is null or search @@ websearch_to_tsquery('english', $4::text))
        and ($5::text is null or id < $5::text)
      order by id desc
      limit $6`,
    [JSON.stringify(visibleOwners(ctx.principal)), ctx.now().toISOString(), input.tag ?? null, q, after, limit + 1],
  );
  const page = rows.slice(0, limit);
  const viewer = { kind: "principal", principal: ctx.principal } as const;
  const items = await toArtifacts(ctx.store, ctx.config, viewer, page);
  const last = page.at(-1);
  return { items, next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}
