import { newId } from "../ids.js";
import type { Sql } from "../store/port.js";
import { ringNotifier } from "./wake.js";

export interface QueuedNotification {
  /** Unique per channel: the trigger and what it is about (`assigned:art_…`, `digest:2026-12-02`). */
  key: string;
  trigger: string;
  content: Record<string, unknown>;
  now: Date;
  artifactId?: string;
}

/**
 * Queues one notification to one channel in the caller's transaction; nothing when the
 * channel already has one with this key (the database's unique key: one per receipt,
 * trigger and channel). Returns its id, or null when it existed.
 */
export async function queueNotification(tx: Sql, channelId: string, n: QueuedNotification): Promise<string | null> {
  const id = newId("ntf", n.now);
  const rows = await tx.query<{ id: string }>(
    `insert into notifications (id, channel_id, dedupe_key, trigger, artifact_id, content, state, next_at, created_at)
     values ($1, $2, $3, $4, $5, $6::jsonb, 'pending', $7, $7)
     on conflict (channel_id, dedupe_key) do nothing returning id`,
    [id, channelId, n.key, n.trigger, n.artifactId ?? null, JSON.stringify(n.content), n.now.toISOString()],
  );
  if (rows.length > 0) tx.afterCommit(ringNotifier);
  return rows[0]?.id ?? null;
}
