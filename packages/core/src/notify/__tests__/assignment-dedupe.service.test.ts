import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../store/port.js";
import { createTestWorld, DRIVERS, minimalReceipt, openTestStore, type TestUser, type TestWorld } from "../../testing/index.js";
import { fanOut, queueReminders } from "../fanout.js";

const DAY = 86_400_000;
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);

/**
 * SPEC §37: a receipt assigned back to someone notifies them again — the keys are per
 * assignment, not per receipt.
 */
describe.each(DRIVERS)("notifications per assignment on %s", (driver) => {
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

  it("assigned, reassigned to someone else and assigned back: the assignee hears twice, and reminders start again", async () => {
    const [sam, kim] = [await world.user("sam"), await world.user("kim")];
    const team = await world.team([sam, kim]);
    const channel = await slackChannel(sam);
    const made = await world.cairn.invoke("receipt_create", sam.ctx(), {
      ...minimalReceipt({ human_action: "Approve the new firewall rules" }),
      owner: team,
      assignee: sam.name,
    });
    const id = (made as { id: string }).id;
    await fanOut(store, new Date());
    expect(await queued(channel, "assigned")).toBe(1);
    await queueReminders(store, later(new Date(), DAY + 60_000));
    expect(await queued(channel, "reminder")).toBe(1);

    await world.cairn.invoke("artifact_assign", sam.ctx(), { id, assignee: kim.name });
    await fanOut(store, new Date());
    await world.cairn.invoke("artifact_assign", sam.ctx(), { id, assignee: sam.name });
    await fanOut(store, new Date());
    expect(await queued(channel, "assigned")).toBe(2);
    await fanOut(store, new Date()); // each event is taken once: nothing more
    expect(await queued(channel, "assigned")).toBe(2);
    // The new assignment's first reminder comes a day after it, as the first one did.
    await queueReminders(store, later(new Date(), DAY + 60_000));
    expect(await queued(channel, "reminder")).toBe(2);
    await queueReminders(store, later(new Date(), DAY + 120_000));
    expect(await queued(channel, "reminder")).toBe(2);
  });
});
