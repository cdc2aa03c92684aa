import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCHEDULE } from "../../events/schedule.js";
import type { Store } from "../../store/port.js";
import { createTestWorld, DRIVERS, minimalReceipt, openTestStore, type TestUser, type TestWorld } from "../../testing/index.js";
import { claimBatches, recordMessage } from "../deliver.js";
import { fanOut, queueReminders } from "../fanout.js";
import { NOTIFY_RETENTION_DAYS, pruneNotificationsJob } from "../prune.js";

const DAY = 86_400_000;
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

/**
 * SPEC §37: the retention job prunes finished notifications, their attempts and settled
 * assignments without anything being sent again — the clock is the job's `now`, moved past
 * the retention.
 */
describe.each(DRIVERS)("the notifications retention on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  beforeAll(async () => {
    store = await openTestStore(driver);
    world = await createTestWorld(store);
  });
  afterAll(async () => store?.close());

  const slackChannel = async (user: TestUser) =>
    (await world.cairn.invoke("channel_create", user.ctx(), { kind: "slack", target: `https://hooks.example.com/services/T/B/${user.name}` })).id;
  const queued = async (channel: string, trigger: string) =>
    (await store.query<{ n: number }>("select count(*)::int as n from notifications where channel_id = $1 and trigger = $2", [channel, trigger]))[0]?.n;
  /** What the notifier does once a channel took the message: claimed, recorded as delivered. */
  const deliverDue = async (now: Date) => {
    for (;;) {
      const batches = await claimBatches(store, now, 10, DEFAULT_SCHEDULE.leaseMs);
      if (batches.length === 0) return;
      for (const b of batches) await recordMessage(store, b.channel_id, b.items, { ok: true, status: 200, latencyMs: 1 }, now, DEFAULT_SCHEDULE);
    }
  };

  it("prunes finished notifications, attempts and settled assignments past the retention, and sends nothing again", async () => {
    const sam = await world.user("sam");
    const channel = await slackChannel(sam);
    await world.cairn.invoke("receipt_create", sam.ctx(), { ...minimalReceipt({ human_action: "Rotate the deploy key" }), assignee: sam.name });
    const t0 = new Date();
    await fanOut(store, t0);
    await deliverDue(t0);
    for (const k of [1, 2, 3]) {
      const at = later(t0, k * DAY + 60_000);
      await queueReminders(store, at);
      await deliverDue(at);
    }
    const count = async (sql: string) => (await store.query<{ n: number }>(sql, [channel]))[0]?.n;
    const notifications = () => count("select count(*)::int as n from notifications where channel_id = $1");
    const attempts = () => count("select count(*)::int as n from notification_attempts where channel_id = $1");
    const assignments = () =>
      count("select count(*)::int as n from notify_assignments na join channels c on c.id = $1 join users u on u.id = c.user_id where na.assignee = u.name");
    expect([await notifications(), await attempts(), await assignments()]).toEqual([4, 4, 1]);
    // One still waiting (a test message nobody sent yet): the job never prunes what is pending.
    await world.cairn.invoke("channel_test", sam.ctx(), { id: channel });

    const run = (now: Date) => pruneNotificationsJob.run({ store, config: world.cairn.config, now: () => now, log() {}, signal: new AbortController().signal });
    await run(later(t0, (NOTIFY_RETENTION_DAYS - 1) * DAY)); // inside the retention: nothing goes
    expect([await notifications(), await attempts(), await assignments()]).toEqual([5, 4, 1]);
    const past = later(t0, (NOTIFY_RETENTION_DAYS + 4) * DAY);
    await run(past);
    expect([await notifications(), await attempts(), await assignments()]).toEqual([1, 0, 0]);

    // The receipt still waits on sam, unacknowledged: nothing about it is queued again.
    for (const at of [past, later(past, DAY), later(past, 10 * DAY)]) {
      await fanOut(store, at);
      await queueReminders(store, at);
    }
    expect(await notifications()).toBe(1);
    expect(await queued(channel, "test")).toBe(1);
  });
});
