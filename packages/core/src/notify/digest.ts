import { defineJob } from "../events/jobs.js";
import type { Store } from "../store/port.js";
import { queueNotification } from "./queue.js";
import { waitingOn } from "./waiting.js";

/** Items listed in one digest (the count says how many wait in all). */
const DIGEST_ITEMS = 20;

/**
 * The daily digest (SPEC §27): for each person with the digest on whose `digest_hour` (UTC)
 * it is, what waits on them, once per day and channel (key `digest:YYYY-MM-DD`); nothing
 * when nothing waits. Returns how many digests it queued.
 */
export async function queueDigests(store: Store, now: Date): Promise<number> {
  const day = now.toISOString().slice(0, 10);
  const people = await store.query<{ user_id: string }>(
    `select s.user_id from notify_settings s
      where s.digest and s.digest_hour = $1
        and exists (select 1 from channels c where c.user_id = s.user_id and c.state = 'active'
                      and not exists (select 1 from notifications n where n.channel_id = c.id and n.dedupe_key = $2))`,
    [now.getUTCHours(), `digest:${day}`],
  );
  let queued = 0;
  for (const { user_id } of people) {
    const { items, total } = await waitingOn(store, user_id, now, DIGEST_ITEMS);
    if (total === 0) continue;
    const content = {
      kind: "digest",
      count: total,
      items: items.map((i) => ({ artifact_id: i.id, title: i.title, human_action: i.human_action, owner: i.owner })),
    };
    await store.transaction(async (tx) => {
      const channels = await tx.query<{ id: string }>("select id from channels where user_id = $1 and state = 'active'", [user_id]);
      for (const c of channels) if (await queueNotification(tx, c.id, { key: `digest:${day}`, trigger: "digest", content, now })) queued++;
    });
  }
  return queued;
}

export const digestJob = defineJob({
  name: "notify_digest",
  everyMs: 60_000,
  run: async ({ store, now }) => ({ count: await queueDigests(store, now()) }),
});
