import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestWorld } from "../../__tests__/helpers.js";
import { startWorker, type Worker } from "../../runtime/worker.js";
import { aWeekLater, claimableAt, DRIVERS, eventually, minimalReceipt, startReceiver, type TestReceiver } from "../../testing/index.js";
import { measureDueJob } from "../measure-due.js";

describe.each(DRIVERS)("the human loop's events reach a webhook receiver on %s", (driver) => {
  const fx = useTestWorld(driver);
  let receiver: TestReceiver;
  let workers: Worker[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const w of workers) await w.stop(1_000);
    await receiver?.close();
  });

  it("receipt.acknowledged once per person and receipt.measure_due once with two workers, signed", async () => {
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), {
      url: receiver.url,
      events: ["receipt.acknowledged", "receipt.measure_due"],
    });
    const receipt = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      minimalReceipt({ human_action: "Approve the budget", outcome: { status: "pending", measure_at: "2020-01-01" } }),
    );
    const acked = await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: receipt.id, note: "Approved" });
    await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: receipt.id, note: "again" });
    // Two worker processes share the outbox and the scheduled jobs.
    const options = { store: fx.store, config: fx.world.cairn.config, pollMs: 20, jobsEveryMs: 20, jobs: [measureDueJob] };
    workers = [startWorker(options), startWorker(options)];

    const got = await receiver.waitFor(2);
    // Two workers, one event of each kind (the notice's primary key decides), and nothing left that a claim could send again.
    const stored = await fx.store.query<{ type: string }>("select type from events where owner = $1 and type <> 'artifact.created' order by type", [
      `user:${sam.name}`,
    ]);
    expect(stored.map((e) => e.type)).toEqual(["receipt.acknowledged", "receipt.measure_due"]);
    await eventually(async () => (await fx.store.query("select 1 from deliveries where subscription_id = $1 and state = 'pending'", [sub.id])).length === 0);
    expect(await claimableAt(fx.store, sub.id, aWeekLater())).toEqual([]);
    expect(receiver.received).toHaveLength(2);
    for (const r of got) expect(() => new Webhook(sub.secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    const byType = Object.fromEntries(got.map((r) => [JSON.parse(r.body).type, JSON.parse(r.body).data]));
    expect(byType["receipt.acknowledged"]).toEqual({
      id: receipt.id,
      title: receipt.title,
      url: receipt.url,
      owner: receipt.owner,
      acknowledgement: acked.acknowledgements[0],
    });
    expect(byType["receipt.measure_due"]).toEqual({
      id: receipt.id,
      title: receipt.title,
      url: receipt.url,
      owner: receipt.owner,
      measure_at: "2020-01-01",
    });
  });
});
