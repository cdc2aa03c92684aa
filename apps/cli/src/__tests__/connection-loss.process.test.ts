import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  connectPgAdmin,
  createTestDatabase,
  createTestHome,
  minimalReceipt,
  type PgBouncer,
  startPgBouncer,
  startReceiver,
  type TestReceiver,
} from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServeProcess, spawnServe, spawnWorker } from "./serve-process.js";

const drivers = (process.env.CAIRN_TEST_DRIVERS ?? "pglite,pg").split(",").map((d) => d.trim());
const tokenOf = (home: string) => (JSON.parse(readFileSync(join(home, "credentials"), "utf8")) as { token: string }).token;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let written = 0;
/** A receipt unlike every other one (the same words twice are a duplicate, 409). */
const distinctReceipt = () => minimalReceipt({ changed: `Rotated the staging database password, round ${++written}` });

interface Answer {
  status: number;
  retryAfter: string | null;
  code?: string;
  id?: string;
}

/**
 * Three writers POST receipts back to back until `stop()`; every answer is kept. A request
 * that never gets an answer (the process died) is recorded as status 0.
 */
function startWriters(url: string, token: string, writers = 3) {
  const answers: Answer[] = [];
  let running = true;
  const one = async () => {
    while (running) {
      try {
        const res = await fetch(`${url}/v1/receipts`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(distinctReceipt()),
          signal: AbortSignal.timeout(15_000),
        });
        const body = (await res.json().catch(() => ({}))) as { id?: string; error?: { code?: string } };
        answers.push({ status: res.status, retryAfter: res.headers.get("retry-after"), code: body.error?.code, ...(body.id && { id: body.id }) });
        if (res.status !== 201) await sleep(50);
      } catch {
        answers.push({ status: 0, retryAfter: null });
        await sleep(100);
      }
    }
  };
  const loops = Array.from({ length: writers }, one);
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** A subscription to a loopback receiver: each receipt then also makes the in-process worker claim and record a delivery, in transactions. */
async function subscribe(url: string, token: string, receiver: TestReceiver) {
  const res = await fetch(`${url}/v1/subscriptions`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ url: receiver.url }),
  });
  expect(res.status).toBe(201);
}

/** What the issue asks of the server once the faults are over: alive, healthy, writing, and nothing acknowledged lost. */
async function expectRecovered(serve: ServeProcess, token: string, answers: Answer[]) {
  if (process.env.CAIRN_TEST_VERBOSE) {
    const counts: Record<number, number> = {};
    for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
    console.info("answers by status", counts);
  }
  expect(serve.child.exitCode, serve.output().slice(-3000)).toBeNull();
  expect(serve.output()).not.toMatch(/Unhandled 'error' event/);
  // Only 201 and 503 `unavailable` (with Retry-After) in between; never a dead socket, never a 500.
  const statuses = new Set(answers.map((a) => a.status));
  expect([...statuses].filter((s) => s !== 201 && s !== 503)).toEqual([]);
  for (const a of answers.filter((x) => x.status === 503)) {
    expect(a.code).toBe("unavailable");
    expect(Number(a.retryAfter)).toBeGreaterThan(0);
  }
  // The server recovers by itself: /healthz answers 200 within a few seconds.
  let health = 0;
  for (let i = 0; i < 50 && health !== 200; i++) {
    health = await fetch(`${serve.url}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (health !== 200) await sleep(200);
  }
  expect(health).toBe(200);
  const fresh = await fetch(`${serve.url}/v1/receipts`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(distinctReceipt()),
  });
  expect(fresh.status).toBe(201);
  // Every receipt answered 201 is there.
  const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.id as string);
  expect(acknowledged.length).toBeGreaterThan(3);
  for (const id of acknowledged) {
    const read = await fetch(`${serve.url}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(read.status, id).toBe(200);
  }
}

// SPEC §31: a PostgreSQL restart or failover sends 57P01 to every backend; the server must live through it.
describe.runIf(drivers.includes("pg"))("cairn serve when PostgreSQL terminates its connections", () => {
  let db: Awaited<ReturnType<typeof createTestHome>>;
  let serve: ServeProcess;
  let worker: Omit<ServeProcess, "url">;
  let workerHome: Awaited<ReturnType<typeof createTestHome>>;
  let receiver: TestReceiver;
  let token: string;

  beforeAll(async () => {
    db = await createTestHome("pg");
    receiver = await startReceiver();
    serve = await spawnServe({ ...db.env, CAIRN_DB_CONNECT_TIMEOUT_MS: "1000", CAIRN_DB_STATEMENT_TIMEOUT_MS: "2000" });
    token = tokenOf(db.home);
    await subscribe(serve.url, token, receiver);
    // A `cairn worker` of its own on the same database: its connections are terminated too.
    workerHome = await createTestHome("pglite");
    worker = await spawnWorker({ CAIRN_HOME: workerHome.home, DATABASE_URL: db.env.DATABASE_URL as string, CAIRN_DB_CONNECT_TIMEOUT_MS: "1000" });
  }, 90_000);
  afterAll(async () => {
    await worker?.stop();
    await workerHome?.dispose();
    await serve?.stop();
    await receiver?.close();
    await db?.dispose();
  });

  it("pg_terminate_backend three times under three writers: only 201 or 503, then healthy, and every 201 readable", async () => {
    const name = new URL(db.env.DATABASE_URL as string).pathname.slice(1);
    const admin = await connectPgAdmin();
    const writers = startWriters(serve.url, token);
    try {
      for (let round = 0; round < 3; round++) {
        await sleep(700);
        await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [name]);
      }
      await sleep(700);
    } finally {
      await writers.stop();
      await admin.close();
    }
    await expectRecovered(serve, token, writers.answers);
    expect(worker.child.exitCode, worker.output().slice(-2000)).toBeNull();
    expect(worker.output()).not.toMatch(/Unhandled 'error' event/);
  }, 90_000);
});

// The same through PgBouncer in transaction mode, killed with SIGKILL and started again on the same port.
describe.runIf(drivers.includes("pg"))("cairn serve when its PgBouncer is killed and restarted", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let bouncer: PgBouncer;
  let serve: ServeProcess;
  let home: Awaited<ReturnType<typeof createTestHome>>;
  let receiver: TestReceiver;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase("pg");
    bouncer = await startPgBouncer({ target: db.directUrl as string });
    home = await createTestHome("pglite"); // only its CAIRN_HOME is used
    serve = await spawnServe({
      CAIRN_HOME: home.home,
      DATABASE_URL: bouncer.through(db.directUrl as string),
      CAIRN_MIGRATE_URL: db.directUrl as string,
      CAIRN_DB_CONNECT_TIMEOUT_MS: "1000",
      CAIRN_DB_STATEMENT_TIMEOUT_MS: "2000",
    });
    token = tokenOf(home.home);
    receiver = await startReceiver();
    await subscribe(serve.url, token, receiver);
  }, 90_000);
  afterAll(async () => {
    await serve?.stop();
    await receiver?.close();
    await bouncer?.stop();
    await db?.dispose();
    await home?.dispose();
  });

  it("kill -9 of PgBouncer three times under three writers: only 201 or 503, then healthy, and every 201 readable", async () => {
    const writers = startWriters(serve.url, token);
    try {
      for (let round = 0; round < 3; round++) {
        await sleep(700);
        await bouncer.kill("SIGKILL");
        await sleep(300);
        bouncer = await startPgBouncer({ target: db.directUrl as string, port: bouncer.port });
      }
      await sleep(700);
    } finally {
      await writers.stop();
    }
    await expectRecovered(serve, token, writers.answers);
  }, 90_000);
});
