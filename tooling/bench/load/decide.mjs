// The decide row (SPEC §32, §38): answer → waiting agent, on one `cairn serve` and across two
// behind PgBouncer in transaction mode (no LISTEN: each server's one shared poll), and the
// database's transactions per second with 1,000 idle waiters against the same servers idle.
import { readFileSync } from "node:fs";
import { PG_ADMIN_URL, startPgBouncer } from "@cairn/core/testing";
import pg from "pg";
import { figure, QUICK } from "../lib.mjs";
import { benchDatabase, startCairn } from "./procs.mjs";

const ROUNDS = QUICK ? 10 : 40;
const IDLE_S = QUICK ? 5 : 15;
const EXAMPLE = JSON.parse(readFileSync(new URL("../../../examples/receipt.json", import.meta.url), "utf8"));
const ASK = {
  options: [
    { id: "approve", label: "Approve" },
    { id: "reject", label: "Reject" },
  ],
};
let seq = 0;

async function call(url, token, method, path, json) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json !== undefined && { "content-type": "application/json" }) },
    ...(json !== undefined && { body: JSON.stringify(json) }),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.json();
}

const ask = (server) =>
  call(server.url, server.token, "POST", "/v1/receipts", { ...EXAMPLE, human_action: "Approve?", ask: ASK, learned: `decide ${process.pid}-${seq++}` });

/** One answer on `answerer` while a waiter holds on `waiter`: ms from sending the answer to the waiter's answer. */
async function once(waiter, answerer) {
  const { id } = await ask(waiter);
  const waiting = call(waiter.url, waiter.token, "GET", `/v1/artifacts/${id}/decision?wait=30`).then(() => performance.now());
  await new Promise((r) => setTimeout(r, 150));
  const sent = performance.now();
  await call(answerer.url, answerer.token, "POST", `/v1/artifacts/${id}/decide`, { option: "approve" });
  return (await waiting) - sent;
}

const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

async function xacts(admin, name) {
  const { rows } = await admin.query("select xact_commit + xact_rollback as n from pg_stat_database where datname = $1", [name]);
  return Number(rows[0].n);
}

async function rate(admin, name, seconds) {
  const before = await xacts(admin, name);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  // pg_stat_database is updated when a backend reports; a pause lets the last second land.
  await new Promise((r) => setTimeout(r, 600));
  return ((await xacts(admin, name)) - before) / seconds;
}

export async function benchDecide() {
  const db = await benchDatabase("pg");
  const bouncer = await startPgBouncer({ target: PG_ADMIN_URL });
  const through = { ...db, databaseUrl: bouncer.through(db.databaseUrl) };
  const name = new URL(db.databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  const a = await startCairn(through, { CAIRN_MIGRATE_URL: db.databaseUrl });
  const b = await startCairn(through, { CAIRN_MIGRATE_URL: db.databaseUrl });
  b.token = a.token;
  try {
    const local = [];
    const across = [];
    for (let i = 0; i < ROUNDS; i++) {
      local.push(await once(a, a));
      across.push(await once(a, b));
    }
    figure({
      name: "decide → waiter p95, one server (PgBouncer)",
      value: p95(local),
      unit: "ms",
      baselineName: "SPEC §32 bound 250 ms",
      baseline: 250,
      target: 1,
    });
    figure({
      name: "decide → waiter p95, across two servers (PgBouncer)",
      value: p95(across),
      unit: "ms",
      baselineName: "SPEC §32 bound 1000 ms",
      baseline: 1000,
      target: 1,
    });

    const idle = await rate(admin, name, IDLE_S);
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push((await ask(a)).id);
    const abort = new AbortController();
    const held = [];
    for (let i = 0; i < 1000; i++) {
      held.push(
        fetch(`${a.url}/v1/artifacts/${ids[i % ids.length]}/decision?wait=60`, { headers: { authorization: `Bearer ${a.token}` }, signal: abort.signal }).catch(
          () => {},
        ),
      );
      if (i % 50 === 49) await new Promise((r) => setTimeout(r, 100));
    }
    // Each waiter costs its arrival (the token, the read): on a busy machine they arrive over
    // seconds. Measure once they all wait — when a second passes at the servers' idle rate.
    const arriving = performance.now();
    while ((await rate(admin, name, 1)) > idle + 10 && performance.now() - arriving < 35_000);
    // A backend that goes idle reports its counts up to 10 s later (PostgreSQL's
    // PGSTAT_IDLE_INTERVAL), so the arrivals' transactions keep landing for a while after the
    // rate first dips: measured at once, they read as 20–66 xact/s; second by second they stop
    // within about 10 s, after which the servers run at their idle rate. Let them land first.
    await new Promise((r) => setTimeout(r, 11_000));
    const waiting = await rate(admin, name, IDLE_S);

    abort.abort();
    await Promise.all(held);
    figure({
      name: "database transactions/s with 1,000 idle waiters, beyond the same servers idle",
      value: Math.max(0, waiting - idle),
      unit: "xact/s",
      baselineName: "SPEC §38 bound 5/s",
      baseline: 5,
      target: 1,
      extra: {
        arrival_s: Math.round((performance.now() - arriving) / 100) / 10 - IDLE_S,
        idle_servers_xact_per_s: Math.round(idle * 10) / 10,
        with_waiters_xact_per_s: Math.round(waiting * 10) / 10,
      },
    });
  } finally {
    await a.stop();
    await b.stop();
    await admin.end();
    await bouncer.stop();
    await db.dispose();
  }
}
