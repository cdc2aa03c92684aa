import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONCURRENCY_DRIVERS, createTestHome, DRIVERS, minimalReceipt, startReceiver, type TestReceiver } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeFor, spawnServe, spawnWorker } from "./serve-process.js";

async function post(url: string, token: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

const tokenOf = (home: string) => (JSON.parse(readFileSync(join(home, "credentials"), "utf8")) as { token: string }).token;

describe.each(DRIVERS)("webhooks across a crash on %s", (driver) => {
  it("a cairn serve killed with SIGKILL between the create and the delivery delivers after restart", async () => {
    const { env, home, dispose } = await homeFor(driver);
    const receiver = await startReceiver();
    const tuned = { ...env, CAIRN_WEBHOOK_LEASE_MS: "1000" };
    try {
      const first = await spawnServe(tuned);
      const token = tokenOf(home);
      const sub = await post(`${first.url}/v1/subscriptions`, token, { url: receiver.url });
      expect(sub.status).toBe(201);
      // The first attempt reaches a receiver that never answers; the server dies mid-delivery.
      receiver.script("hang");
      const created = await post(`${first.url}/v1/receipts`, token, minimalReceipt());
      expect(created.status).toBe(201);
      const [hung] = await receiver.waitFor(1);
      await first.stop("SIGKILL");

      const second = await spawnServe(tuned);
      try {
        const [, delivered] = await receiver.waitFor(2, 20_000);
        expect(delivered?.headers["webhook-id"]).toBe(hung?.headers["webhook-id"]);
        expect(JSON.parse(delivered?.body as string).data.id).toBe(created.json.id);
      } finally {
        await second.stop();
      }
    } finally {
      await receiver.close();
      await dispose();
    }
  }, 90_000);
});

/**
 * The processes of SPEC §12 share nothing but the database: two `cairn serve` and two
 * `cairn worker`, straight to PostgreSQL and through PgBouncer in transaction mode (one of
 * the servers then migrates over the direct URL, CAIRN_MIGRATE_URL; the others through
 * the pooler, where there is nothing left to do).
 */
describe.each(CONCURRENCY_DRIVERS.filter((d) => d !== "pglite"))("many processes on one PostgreSQL (%s)", (driver) => {
  let db: Awaited<ReturnType<typeof createTestHome>>;
  const homes: Array<Awaited<ReturnType<typeof createTestHome>>> = [];
  const processes: Array<{ stop(signal?: NodeJS.Signals): Promise<number | null> }> = [];
  const receivers: TestReceiver[] = [];
  let servers: string[] = [];
  let token = "";

  beforeAll(async () => {
    db = await createTestHome(driver);
    for (let i = 0; i < 2; i++) homes.push(await createTestHome("pglite")); // only their CAIRN_HOME is used
    const shared = { DATABASE_URL: db.env.DATABASE_URL as string };
    receivers.push(await startReceiver(), await startReceiver());
    const a = await spawnServe({ ...db.env, ...(driver === "pgbouncer" && { CAIRN_MIGRATE_URL: db.directUrl as string }) });
    processes.push(a);
    token = tokenOf(db.home);
    for (const r of receivers) expect((await post(`${a.url}/v1/subscriptions`, token, { url: r.url })).status).toBe(201);
    const b = await spawnServe({ ...shared, CAIRN_HOME: homes[0]?.home as string });
    processes.push(b);
    processes.push(await spawnWorker({ ...shared, CAIRN_HOME: homes[1]?.home as string }));
    processes.push(await spawnWorker({ ...shared, CAIRN_HOME: homes[1]?.home as string }));
    servers = [a.url, b.url];
  }, 120_000);
  afterAll(async () => {
    for (const p of processes.reverse()) await p.stop();
    for (const r of receivers) await r.close();
    await db?.dispose();
    for (const h of homes) await h.dispose();
  });

  it("two cairn serve and two cairn worker deliver each of 1,000 events exactly once per subscription", async () => {
    const TOTAL = 1_000;
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < TOTAL) {
          const i = next++;
          const res = await post(`${servers[i % 2]}/v1/artifacts`, token, { title: `event ${i}`, body: `body ${i}` });
          expect(res.status).toBe(201);
        }
      }),
    );
    const written = Date.now();
    for (const r of receivers) await r.waitFor(TOTAL, 60_000);
    console.log(`${TOTAL} events: written in ${written - started} ms, all delivered ${Date.now() - written} ms after the last write`);
    // Let any duplicate that was going to happen arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (const r of receivers) {
      const ids = r.received.map((x) => x.headers["webhook-id"]);
      expect(ids).toHaveLength(TOTAL);
      expect(new Set(ids).size).toBe(TOTAL);
      const titles = new Set(r.received.map((x) => JSON.parse(x.body).data.title));
      expect(titles.size).toBe(TOTAL);
    }
  }, 180_000);

  it("a token revoked on one server is refused by the other on its next receipt, though that server had it cached", async () => {
    const [a, b] = servers as [string, string];
    const agent = await post(`${a}/v1/tokens`, token, { name: "ci", kind: "agent" });
    expect(agent.status).toBe(201);
    // Server b authenticates the token and caches it (ADR 0027).
    expect((await post(`${b}/v1/receipts`, agent.json.token, minimalReceipt({ learned: "before revocation" }))).status).toBe(201);
    const revoked = await fetch(`${a}/v1/tokens/${agent.json.id}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(revoked.status).toBeLessThan(300);
    const refused = await post(`${b}/v1/receipts`, agent.json.token, minimalReceipt({ learned: "after revocation" }));
    expect([refused.status, refused.json.error?.code]).toEqual([401, "unauthenticated"]);
  }, 30_000);
});
