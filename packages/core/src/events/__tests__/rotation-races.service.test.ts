import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { CairnError } from "../../errors.js";
import { startWorker, type Worker } from "../../runtime/worker.js";
import { DRIVERS, startReceiver, type TestReceiver } from "../../testing/index.js";
import type { RetrySchedule } from "../schedule.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const schedule: RetrySchedule = { delays: [60_000], jitter: 0, disableAfterMs: 5 * DAY, maxRetryAfterMs: 1_000, leaseMs: 5_000 };

describe.each(DRIVERS)("secret rotation keeps its word on %s (SPEC §24)", (driver) => {
  let offset = 0;
  const fx = useTestWorld(driver, () => new Date(Date.now() + offset));
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    offset = 0;
    for (const f of cleanup.splice(0).reverse()) await f();
  });
  const receiver = async (): Promise<TestReceiver> => {
    const r = await startReceiver();
    cleanup.push(() => r.close());
    return r;
  };
  const worker = (): Worker => {
    const w = startWorker({ store: fx.store, config: fx.world.cairn.config, schedule, pollMs: 20, jobs: [], now: () => new Date(Date.now() + offset) });
    cleanup.push(() => w.stop(200));
    return w;
  };

  it("two rotations: one delivery verifies with each of the three secrets; a third rotation is a 409 naming when the oldest stops", async () => {
    const r = await receiver();
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: r.url });
    const first = await fx.world.cairn.invoke("subscription_rotate_secret", sam.ctx(), { id: sub.id });
    expect(first.signing).toEqual([
      { secret: "new", replaced_at: null, signs_until: null },
      { secret: "replaced", replaced_at: expect.any(String), signs_until: first.previous_secret_expires_at },
    ]);
    offset = 6_000; // a second rotation 6 s later used to drop the original secret
    const second = await fx.world.cairn.invoke("subscription_rotate_secret", sam.ctx(), { id: sub.id });
    expect(second.signing.map((s) => s.secret)).toEqual(["new", "replaced", "replaced"]);
    expect(second.signing[2]?.signs_until).toBe(first.previous_secret_expires_at);
    // Never a value in the list.
    expect(JSON.stringify(second.signing)).not.toContain("whsec_");

    worker();
    await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "After two rotations", body: "x" });
    const [got] = await r.waitFor(1);
    const headers = got?.headers as Record<string, string>;
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(3);
    // A receiver configured with any of the three verifies, whichever it has (the webhook's clock is the worker's).
    const at = new Date(Number(headers["webhook-timestamp"]) * 1000);
    for (const secret of [sub.secret, first.secret, second.secret]) {
      const mine = new Webhook(secret).sign(headers["webhook-id"] as string, at, got?.body as string);
      expect(headers["webhook-signature"]?.split(" ")).toContain(mine);
      expect(() => new Webhook(secret).verify(got?.body as string, headers)).not.toThrow();
    }

    const refused = await rejectionOf(fx.world.cairn.invoke("subscription_rotate_secret", sam.ctx(), { id: sub.id }));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toContain("3 secrets");
    expect(refused.message).toContain(first.previous_secret_expires_at);

    // Once the oldest stopped signing, rotating works again: the secret from the first rotation and the second's still sign.
    offset = DAY + 3_000; // past the original secret's 24 h, within the first rotation's secret's
    const third = await fx.world.cairn.invoke("subscription_rotate_secret", sam.ctx(), { id: sub.id });
    expect(third.signing.map((s) => s.signs_until)).toEqual([null, third.previous_secret_expires_at, second.previous_secret_expires_at]);
  }, 30_000);
});

describe.each(DRIVERS)("a deleted subscription is a 404 for every operator action on %s (SPEC §24)", (driver) => {
  const fx = useTestWorld(driver);

  it("enable, redeliver, test, recover and rotate of a deleted subscription answer not_found", async () => {
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: "http://127.0.0.1:9/hook" });
    const queued = await fx.world.cairn.invoke("subscription_test", sam.ctx(), { id: sub.id });
    await fx.world.cairn.invoke("subscription_delete", sam.ctx(), { id: sub.id });
    const since = new Date(Date.now() - HOUR).toISOString();
    for (const call of [
      () => fx.world.cairn.invoke("subscription_enable", sam.ctx(), { id: sub.id }),
      () => fx.world.cairn.invoke("subscription_redeliver", sam.ctx(), { id: sub.id, event_id: queued.event_id }),
      () => fx.world.cairn.invoke("subscription_test", sam.ctx(), { id: sub.id }),
      () => fx.world.cairn.invoke("subscription_recover", sam.ctx(), { id: sub.id, since }),
      () => fx.world.cairn.invoke("subscription_rotate_secret", sam.ctx(), { id: sub.id }),
    ]) {
      expect((await rejectionOf(call())).code).toBe("not_found");
    }
  });
});

/**
 * The race itself, on PostgreSQL: the delete is in flight (its transaction holds the row)
 * when the action starts, and commits while the action waits. Before, enable answered 200
 * with the deleted row and redeliver/test failed on the foreign key (a 500).
 */
describe.each(DRIVERS.filter((d) => d !== "pglite"))("a subscription deleted while an action runs on %s", (driver) => {
  const fx = useTestWorld(driver);

  for (const action of ["enable", "redeliver", "test", "recover", "rotate"] as const) {
    it(`${action} racing a delete answers not_found, never a stale row or a 500`, async () => {
      const sam = await fx.world.user("sam");
      const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: "http://127.0.0.1:9/hook" });
      const queued = await fx.world.cairn.invoke("subscription_test", sam.ctx(), { id: sub.id });
      let commit!: () => void;
      const held = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let deleting!: () => void;
      const started = new Promise<void>((resolve) => {
        deleting = resolve;
      });
      const deletion = fx.store.transaction(async (tx) => {
        await tx.query("delete from subscriptions where id = $1", [sub.id]);
        deleting();
        await held;
      });
      await started;
      const ctx = sam.ctx();
      const call =
        action === "enable"
          ? fx.world.cairn.invoke("subscription_enable", ctx, { id: sub.id })
          : action === "redeliver"
            ? fx.world.cairn.invoke("subscription_redeliver", ctx, { id: sub.id, event_id: queued.event_id })
            : action === "test"
              ? fx.world.cairn.invoke("subscription_test", ctx, { id: sub.id })
              : action === "recover"
                ? fx.world.cairn.invoke("subscription_recover", ctx, { id: sub.id, since: new Date(Date.now() - HOUR).toISOString() })
                : fx.world.cairn.invoke("subscription_rotate_secret", ctx, { id: sub.id });
      const outcome = call.then(
        (value) => ({ value }),
        (err: unknown) => ({ err }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300)); // the action now waits on the deleting transaction
      commit();
      await deletion;
      const settled = (await outcome) as { value?: unknown; err?: unknown };
      expect(settled.value).toBeUndefined();
      expect(settled.err).toBeInstanceOf(CairnError);
      expect((settled.err as CairnError).code).toBe("not_found");
    });
  }
});
