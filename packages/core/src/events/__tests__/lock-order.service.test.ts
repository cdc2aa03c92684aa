import { afterAll, describe, expect, it } from "vitest";
import { useTestWorld } from "../../__tests__/helpers.js";
import { createCairn } from "../../cairn.js";
import { CairnError } from "../../errors.js";
import { createLogger } from "../../log.js";
import { startWorker } from "../../runtime/worker.js";
import { DRIVERS, startReceiver } from "../../testing/index.js";
import type { RetrySchedule } from "../schedule.js";

const HOUR = 3_600_000;
const schedule: RetrySchedule = { delays: [150, 150, 150], jitter: 0, disableAfterMs: 5 * 24 * HOUR, maxRetryAfterMs: 1_000, leaseMs: 5_000 };
const LOOP_MS = Number(process.env.CAIRN_LOCK_LOOP_MS ?? 15_000);

/**
 * SPEC §31 "Locks in one order", on PostgreSQL (the embedded store runs one transaction at
 * a time): operators enable, recover, rotate, redeliver and test one subscription in
 * parallel for 15 s while two workers claim and record its deliveries, one in four
 * answered 500 (so there are retries, failures to recover and failing_since to update).
 * Before ADR 0041 this deadlocked within seconds (40P01: enable 500s, recover 500s, the
 * worker's `webhook_claim_failed` / `webhook_record_failed`, an attempt left unrecorded).
 */
describe.each(DRIVERS.filter((d) => d !== "pglite"))("operator actions beside flowing deliveries on %s", (driver) => {
  const fx = useTestWorld(driver);
  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line) });
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const f of closers.reverse()) await f();
  });

  it(
    "no 5xx, no failed claim or record, every attempt recorded",
    async () => {
      const receiver = await startReceiver();
      closers.push(() => receiver.close());
      const sam = await fx.world.user("sam");
      const cairn = fx.world.cairn;
      const sub = await cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url });
      // Every rotation a day after the last, so each one rotates (three signing secrets at most, none refused).
      let days = 0;
      const rotator = createCairn(fx.store, cairn.config, () => new Date(Date.now() + ++days * 25 * HOUR));
      for (let i = 0; i < 2; i++) {
        const w = startWorker({ store: fx.store, config: cairn.config, schedule, pollMs: 20, jobs: [], logger });
        closers.push(() => w.stop(2_000));
      }
      // One answer in four is a 500: retries, failed deliveries to recover, failing_since to keep.
      receiver.script(...Array.from({ length: 5_000 }, (_, i) => ({ status: i % 4 === 3 ? 500 : 200 })));

      const failures: string[] = [];
      const counts: Record<string, number> = {};
      let running = true;
      const loop = (name: string, action: () => Promise<unknown>) =>
        (async () => {
          while (running) {
            try {
              await action();
              counts[name] = (counts[name] ?? 0) + 1;
            } catch (err) {
              const cause = (err as { cause?: { code?: string } }).cause?.code;
              failures.push(`${name}: ${err instanceof CairnError ? err.code : String((err as { code?: string }).code ?? err)}${cause ? ` (${cause})` : ""}`);
            }
          }
        })();
      let written = 0;
      let lastEvent: string | undefined;
      const since = () => new Date(Date.now() - HOUR).toISOString();
      const loops = [
        loop("write", async () => {
          await cairn.invoke("artifact_create", sam.ctx(), { title: `Flowing ${++written}`, body: "x" });
        }),
        loop("write", async () => {
          await cairn.invoke("artifact_create", sam.ctx(), { title: `Flowing too ${++written}`, body: "y" });
        }),
        loop("enable", () => cairn.invoke("subscription_enable", sam.ctx(), { id: sub.id })),
        loop("recover", () => cairn.invoke("subscription_recover", sam.ctx(), { id: sub.id, since: since() })),
        loop("rotate", () => rotator.invoke("subscription_rotate_secret", rotator.context(sam.principal, "rest"), { id: sub.id })),
        loop("test", async () => {
          lastEvent = (await cairn.invoke("subscription_test", sam.ctx(), { id: sub.id })).event_id;
        }),
        loop("redeliver", async () => {
          if (lastEvent) await cairn.invoke("subscription_redeliver", sam.ctx(), { id: sub.id, event_id: lastEvent });
          else await new Promise((r) => setTimeout(r, 10));
        }),
      ];
      await new Promise((resolve) => setTimeout(resolve, LOOP_MS));
      running = false;
      await Promise.all(loops);

      // Let the workers finish what is due (answers are 200 from here on), then compare the receiver with the log of attempts.
      receiver.script(...Array.from({ length: 10_000 }, () => ({ status: 200 })));
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [open] = await fx.store.query<{ n: number }>("select count(*)::int as n from deliveries where subscription_id = $1 and state = 'pending'", [
          sub.id,
        ]);
        if (open?.n === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const f of closers.splice(1).reverse()) await f(); // the workers; the receiver stays for the count
      const [recorded] = await fx.store.query<{ n: number }>("select count(*)::int as n from delivery_attempts where subscription_id = $1", [sub.id]);
      const [claimed] = await fx.store.query<{ n: number }>("select coalesce(sum(attempts), 0)::int as n from deliveries where subscription_id = $1", [sub.id]);
      if (process.env.CAIRN_TEST_VERBOSE) console.info({ counts, failures: failures.length, received: receiver.received.length, recorded: recorded?.n });

      expect(failures).toEqual([]);
      expect(lines.filter((l) => /webhook_(claim|record)_failed|jobs_failed/.test(l))).toEqual([]);
      expect(counts.enable ?? 0).toBeGreaterThan(10);
      expect(counts.recover ?? 0).toBeGreaterThan(10);
      expect(counts.rotate ?? 0).toBeGreaterThan(10);
      // Every request the receiver got is a recorded attempt, and every claimed attempt was recorded.
      expect(receiver.received.length).toBeGreaterThan(50);
      expect(recorded?.n).toBe(receiver.received.length);
      expect(claimed?.n).toBe(recorded?.n);
    },
    LOOP_MS + 90_000,
  );
});
