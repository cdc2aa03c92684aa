import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCHEDULE } from "../../events/schedule.js";
import { startNotifier } from "../../runtime/notifier.js";
import type { Store } from "../../store/port.js";
import { createTestWorld, DRIVERS, eventually, minimalReceipt, openTestStore, startReceiver, type TestReceiver, type TestWorld } from "../../testing/index.js";
import { claimBatches, GROUP_WINDOW_MS, recordMessage } from "../deliver.js";
import { DRAIN_EVERY_MS } from "../drivers.js";
import { queueNotification } from "../queue.js";

const BURST = 500;
/** The notifier's clock runs this much faster than the wall's, so a drain of many seconds takes a fraction of one. */
const SPEED = 5;
const quiet = { info() {}, warn() {}, error() {} };

interface Shown {
  ids: string[];
  more: number;
  inboxLink: boolean;
}

/** What one Slack message showed: the receipts it links to, and the "and N more" it admits to. */
function shownIn(body: string): Shown {
  const section = (JSON.parse(body) as { blocks: Array<{ type: string; text?: { text: string } }> }).blocks.find((b) => b.type === "section");
  const text = section?.text?.text ?? "";
  return {
    ids: [...text.matchAll(/\/a\/(art_[0-9a-z]+)/g)].map((m) => m[1] as string),
    more: Number(/and (\d+) more/.exec(text)?.[1] ?? 0),
    inboxLink: text.includes("http://cairn.test/inbox"),
  };
}

/**
 * SPEC §37: a grouped Slack message that cannot hold every item says "and N more" with a
 * link to the inbox, and only what a message showed is marked delivered; after a burst
 * the channel drains at its kind's documented rate, not three messages a minute.
 */
describe.each(DRIVERS)("a burst to one Slack channel on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  let slack: TestReceiver;
  beforeAll(async () => {
    store = await openTestStore(driver);
    world = await createTestWorld(store);
    slack = await startReceiver("/services/T0/B0/burst");
  });
  afterAll(async () => {
    await slack?.close();
    await store?.close();
  });

  it(`${BURST} receipts: every item is shown once or counted as "and N more", and delivered means shown`, async () => {
    const sam = await world.user("sam");
    const channel = await world.cairn.invoke("channel_create", sam.ctx(), { kind: "slack", target: slack.url });
    const ids = new Set<string>();
    for (let i = 0; i < BURST; i++) {
      const made = await world.cairn.invoke("receipt_create", sam.ctx(), {
        ...minimalReceipt({ changed: `Moved shard ${i} of the burst to the new cluster`, human_action: `Check that shard ${i} answers` }),
        assignee: sam.name,
      });
      ids.add((made as { id: string }).id);
    }
    const started = Date.now();
    const base = started;
    const now = () => new Date(base + (Date.now() - started) * SPEED);
    const run = () =>
      startNotifier({
        store,
        config: world.cairn.config,
        now,
        schedule: { ...DEFAULT_SCHEDULE, leaseMs: 86_400_000 },
        denyPrivate: false,
        logger: quiet,
        pollMs: 20,
      });
    const shownSoFar = () => slack.received.flatMap((r) => shownIn(r.body).ids);
    const delivered = async () =>
      (await store.query<{ artifact_id: string }>("select artifact_id from notifications where channel_id = $1 and state = 'delivered'", [channel.id]))
        .map((r) => r.artifact_id)
        .sort();

    // Stopped mid-drain: what is marked delivered is exactly what the messages so far showed.
    const first = run();
    await slack.waitFor(6, 30_000);
    await first.stop();
    const midway = shownSoFar();
    const midwayMessages = slack.received.length;
    expect(midway.length).toBeLessThan(BURST);
    expect(await delivered()).toEqual([...midway].sort());

    const second = run();
    try {
      await eventually(async () => new Set(shownSoFar()).size === BURST, 60_000, 50);
    } finally {
      await second.stop();
    }
    const messages = slack.received.map((r) => shownIn(r.body));
    const all = messages.flatMap((m) => m.ids);
    expect(all).toHaveLength(BURST); // each receipt in exactly one message
    expect(new Set(all)).toEqual(ids);
    expect(await delivered()).toEqual([...all].sort());
    for (const m of messages.filter((x) => x.more > 0)) expect(m.inboxLink).toBe(true);
    expect(messages.some((m) => m.more > 0)).toBe(true); // 500 never fit one message: some said so

    // Each attempt counts what its message showed; after the burst the channel drains at Slack's rate.
    const attempts = await store.query<{ at: Date | string; notifications: number }>(
      "select at, notifications from notification_attempts where channel_id = $1 order by at",
      [channel.id],
    );
    expect(attempts.map((a) => a.notifications)).toEqual(messages.map((m) => m.ids.length));
    const times = attempts.map((a) => new Date(a.at).getTime());
    // Up to three a minute go as they come; past that, one per drain interval at most.
    times.forEach((t, i) => {
      const withinMinute = times.slice(0, i).filter((x) => x > t - GROUP_WINDOW_MS).length;
      if (withinMinute >= 3) expect(t - (times[i - 1] as number)).toBeGreaterThanOrEqual(DRAIN_EVERY_MS.slack - 1);
    });
    // Three a minute would leave a gap of most of a minute after every third message. Draining, each
    // gap is the drain interval plus the work of one message (the last one excepted: once what is left
    // fits one message, it waits for the minute to free up, as a group should). The pause between the
    // two runs is the test's.
    const gaps = times.slice(1, -1).map((t, i) => t - (times[i] as number));
    const drained = gaps.filter((_, i) => i + 1 !== midwayMessages);
    console.log(`${driver}: ${messages.length} messages for ${BURST} receipts; gaps ${drained.join(",")} ms on the notifier's clock`);
    expect(Math.max(...drained)).toBeLessThan(GROUP_WINDOW_MS / 3);
  }, 180_000);

  it("a channel draining a backlog does not starve a newer one: the channel sent to longest ago is claimed first", async () => {
    const [ann, bob] = [await world.user("ann"), await world.user("bob")];
    const target = (u: string) => `https://hooks.example.com/services/T/B/${u}`;
    const backlogged = (await world.cairn.invoke("channel_create", ann.ctx(), { kind: "slack", target: target(ann.name) })).id;
    const fresh = (await world.cairn.invoke("channel_create", bob.ctx(), { kind: "slack", target: target(bob.name) })).id;
    const now = new Date();
    const queue = (channel: string, key: string, at: Date) =>
      store.transaction((tx) => queueNotification(tx, channel, { key, trigger: "assigned", content: { kind: "assigned", title: key }, now: at }));
    for (let i = 0; i < 80; i++) await queue(backlogged, `old:${i}`, new Date(now.getTime() - 60_000));
    const [first] = await claimBatches(store, now, 1, 60_000);
    expect(first?.channel_id).toBe(backlogged);
    await recordMessage(store, backlogged, first?.items ?? [], { ok: true, status: 200, latencyMs: 1 }, now, DEFAULT_SCHEDULE);
    await queue(fresh, "new:0", now);
    // The backlog's 30 left are older than bob's one, yet bob's channel was never sent to.
    const [second] = await claimBatches(store, new Date(now.getTime() + 1_000), 1, 60_000);
    expect(second?.channel_id).toBe(fresh);
    await recordMessage(store, fresh, second?.items ?? [], { ok: true, status: 200, latencyMs: 1 }, now, DEFAULT_SCHEDULE);
    // Claimed together, each channel gets its own batch: the older backlog does not take every row.
    for (let i = 0; i < 80; i++) await queue(backlogged, `older:${i}`, new Date(now.getTime() - 120_000));
    await queue(fresh, "new:1", now);
    const both = await claimBatches(store, new Date(now.getTime() + 61_000), 2, 60_000);
    expect(both.map((b) => [b.channel_id, b.items.length]).sort()).toEqual(
      [
        [backlogged, 50],
        [fresh, 1],
      ].sort(),
    );
  });
});
