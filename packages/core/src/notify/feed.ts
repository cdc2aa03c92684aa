import { randomBytes } from "node:crypto";
import type { ServiceContext } from "../context.js";
import { hashToken } from "../ids.js";
import type { Store } from "../store/port.js";
import { CARD_LABELS } from "../view/card.js";
import { artifactLink } from "./render.js";
import { waitingOn } from "./waiting.js";
import { xmlText } from "./xml.js";

/** Entries in the feed. */
export const FEED_ENTRIES = 50;

export const feedPath = "/feeds/inbox.atom";

/** POST /v1/me/feed-key: a new key (shown once, stored hashed); the previous one stops working. */
export async function rotateFeedKey(ctx: ServiceContext): Promise<{ key: string; url: string }> {
  const key = `cfk_${randomBytes(32).toString("base64url")}`;
  await ctx.store.query(
    `insert into feed_keys (user_id, key_hash, created_at) values ($1, $2, $3)
     on conflict (user_id) do update set key_hash = excluded.key_hash, created_at = excluded.created_at`,
    [ctx.principal.user.id, hashToken(key), ctx.now().toISOString()],
  );
  return { key, url: `${ctx.config.publicUrl}${feedPath}?key=${key}` };
}

// Every value goes through xmlText: one stored control character must not break the feed for every reader.
const x = xmlText;
const iso = (v: Date | string) => new Date(v).toISOString();

/**
 * The Atom 1.0 feed (RFC 4287) of what waits on the key's owner, newest first, or null for
 * a key that is not (or no longer) anyone's. Each entry: the title, the human action as
 * stored, the `/a/:id` link (sign-in required), the time it was written.
 */
export async function inboxFeed(store: Store, publicUrl: string, key: string, now: Date): Promise<string | null> {
  if (!/^cfk_[A-Za-z0-9_-]{20,100}$/.test(key)) return null;
  const [owner] = await store.query<{ user_id: string; name: string }>(
    "select k.user_id, u.name from feed_keys k join users u on u.id = k.user_id where k.key_hash = $1",
    [hashToken(key)],
  );
  if (!owner) return null;
  const { items } = await waitingOn(store, owner.user_id, now, FEED_ENTRIES);
  const updated = items[0] ? iso(items[0].created_at) : now.toISOString();
  const entries = items.map((i) => {
    const link = artifactLink(publicUrl, i.id);
    return [
      "  <entry>",
      `    <id>${x(link)}</id>`,
      `    <title>${x(i.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${x(link)}"/>`,
      `    <updated>${iso(i.created_at)}</updated>`,
      `    <author><name>${x(i.owner)}</name></author>`,
      `    <summary type="text">${x(`${CARD_LABELS.action}: ${i.human_action}`)}</summary>`,
      "  </entry>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${x(`${publicUrl}/inbox#${owner.name}`)}</id>`,
    `  <title>${x(`Cairn: what waits on ${owner.name}`)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="alternate" type="text/html" href="${x(`${publicUrl}/inbox`)}"/>`,
    `  <author><name>Cairn</name></author>`,
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}
