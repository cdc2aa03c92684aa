import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../log.js";
import type { Store } from "../../store/port.js";
import { DRIVERS, eventually, openTestStore } from "../../testing/index.js";
import { type ClaimLoop, type ClaimLoopOptions, startClaimLoop } from "../claim-loop.js";

/**
 * The loop both workers run (webhooks and notifications), held to a queue of its own in a
 * real store: each claim is an `update … for update skip locked` under a lease, as the
 * outbox's and the notifier's are.
 */
interface Item {
  id: number;
  attempts: number;
}

const LEASE_MS = 300;
const quiet = createLogger({ write: () => {} });

describe.each(DRIVERS)("the claim loop on %s", (driver) => {
  let store: Store;
  const loops: ClaimLoop[] = [];
  let rings: Array<() => void> = [];
  const ring = () => {
    for (const r of rings) r();
  };

  beforeAll(async () => {
    store = await openTestStore(driver);
    await store.exec(
      "create table claim_queue (id int primary key, due_at timestamptz not null, leased_until timestamptz, attempts int not null default 0, done_at timestamptz)",
    );
  });
  afterAll(() => store.close());
  afterEach(async () => {
    for (const l of loops.splice(0)) await l.stop(200);
    rings = [];
    await store.query("delete from claim_queue");
  });

  const enqueue = (id: number, dueInMs = 0) =>
    store.query("insert into claim_queue (id, due_at) values ($1, now() + $2 * interval '1 millisecond')", [id, dueInMs]);
  const claim = (free: number) =>
    store.query<Item>(
      `update claim_queue q set leased_until = now() + $2 * interval '1 millisecond', attempts = q.attempts + 1
        where q.id in (select id from claim_queue where done_at is null and due_at <= now()
                        and (leased_until is null or leased_until < now()) order by id limit $1 for update skip locked)
        returning q.id, q.attempts`,
      [free, LEASE_MS],
    );
  const finish = (id: number) => store.query("update claim_queue set done_at = now(), leased_until = null where id = $1", [id]);
  const retryLater = (id: number, ms: number) =>
    store.query("update claim_queue set leased_until = null, due_at = now() + $2 * interval '1 millisecond' where id = $1", [id, ms]);
  const release = (id: number) => store.query("update claim_queue set leased_until = null, attempts = attempts - 1 where id = $1", [id]);
  const row = async (id: number) =>
    (
      await store.query<{ attempts: number; done: boolean; leased: boolean }>(
        "select attempts, done_at is not null as done, leased_until is not null as leased from claim_queue where id = $1",
        [id],
      )
    )[0];

  const start = (work: ClaimLoopOptions<Item>["work"], extra: Partial<ClaimLoopOptions<Item>> = {}) => {
    const loop = startClaimLoop<Item>({
      pollMs: 60_000,
      concurrency: 4,
      onRing: (wake) => {
        rings.push(wake);
        return () => {
          rings = rings.filter((r) => r !== wake);
        };
      },
      claim,
      work,
      logger: quiet,
      codes: { claimFailed: "test_claim_failed", workFailed: "test_work_failed" },
      ...extra,
    });
    loops.push(loop);
    return loop;
  };

  it("a ring wakes it at once, without waiting for the poll", async () => {
    const done: number[] = [];
    start(async (i) => {
      done.push(i.id);
      await finish(i.id);
    });
    await new Promise((r) => setTimeout(r, 100));
    await enqueue(1);
    ring();
    await eventually(async () => (await row(1))?.done, 3_000);
    expect(done).toEqual([1]);
  });

  it("without a ring, the poll finds what another process wrote", async () => {
    start(async (i) => void (await finish(i.id)), { pollMs: 50 });
    await new Promise((r) => setTimeout(r, 100));
    await enqueue(2);
    await eventually(async () => (await row(2))?.done, 3_000);
  });

  it("claims no more than its free slots, and takes the rest after a full batch", async () => {
    for (let id = 10; id < 20; id++) await enqueue(id);
    let running = 0;
    let most = 0;
    start(
      async (i) => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 20));
        await finish(i.id);
        running--;
      },
      { concurrency: 3 },
    );
    await eventually(async () => (await store.query("select 1 from claim_queue where done_at is null")).length === 0, 5_000);
    expect(most).toBeLessThanOrEqual(3);
  });

  it("retries what failed when it falls due, and keeps going after a failing item", async () => {
    await enqueue(30);
    await enqueue(31);
    start(
      async (i) => {
        if (i.id === 31) throw new Error("the item's own failure");
        if (i.attempts < 3) return void (await retryLater(i.id, 30));
        await finish(i.id);
      },
      { pollMs: 20 },
    );
    await eventually(async () => (await row(30))?.done, 5_000);
    expect((await row(30))?.attempts).toBe(3);
  });

  it("takes over an item whose lease ran out (a killed process's claim)", async () => {
    await enqueue(40);
    expect((await claim(1)).map((i) => i.id)).toEqual([40]);
    start(async (i) => void (await finish(i.id)), { pollMs: 50 });
    await new Promise((r) => setTimeout(r, LEASE_MS / 2));
    expect((await row(40))?.done).toBe(false);
    await eventually(async () => (await row(40))?.done, 5_000);
    expect((await row(40))?.attempts).toBe(2);
  });

  it("stop lets an item in flight finish within the grace, then claims nothing more", async () => {
    await enqueue(50);
    const seen: number[] = [];
    const loop = start(async (i) => {
      seen.push(i.id);
      await new Promise((r) => setTimeout(r, 100));
      await finish(i.id);
    });
    await eventually(async () => seen.length === 1, 3_000);
    await loop.stop(2_000);
    expect((await row(50))?.done).toBe(true);
    await enqueue(51);
    ring();
    await new Promise((r) => setTimeout(r, 150));
    expect(seen).toEqual([50]);
    expect((await row(51))?.attempts).toBe(0);
  });

  it("stop aborts what outlives the grace, and the item gives its claim back", async () => {
    await enqueue(60);
    let started = false;
    const loop = start(
      (i, signal) =>
        new Promise<void>((resolve) => {
          started = true;
          signal.addEventListener("abort", () => void release(i.id).then(() => resolve()));
        }),
    );
    await eventually(async () => started, 3_000);
    const before = Date.now();
    await loop.stop(100);
    expect(Date.now() - before).toBeLessThan(2_000);
    expect(await row(60)).toEqual({ attempts: 0, done: false, leased: false });
  });

  it("runs the turn hook every turn and a before-claim step that can ask for another look", async () => {
    let turns = 0;
    let looks = 0;
    await enqueue(70);
    start(async (i) => void (await finish(i.id)), {
      pollMs: 20,
      everyTurn: () => void turns++,
      beforeClaim: async () => ++looks === 1,
    });
    await eventually(async () => (await row(70))?.done && turns > 2 && looks > 2, 3_000);
  });
});
