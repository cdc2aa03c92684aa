// How long a PostgreSQL restart costs `cairn serve` behind PgBouncer: from the restart to the
// first receipt stored again, with PgBouncer's default server_login_retry and with a short one.
// Needs a throwaway PostgreSQL this script may restart (never a shared one) and pgbouncer:
//   PG_DATA=/tmp/pg/data PG_PORT=55431 node tooling/bench/pgbouncer-restart.mjs
// PG_BIN (default /usr/lib/postgresql/15/bin), PGBOUNCER_BIN, ROUNDS (default 2). Run as root:
// pg_ctl and pgbouncer run as the postgres user. Prints one JSON line per round.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
const PG_DATA = process.env.PG_DATA;
const PG_PORT = process.env.PG_PORT ?? "55431";
const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? "/usr/sbin/pgbouncer";
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const CLI = fileURLToPath(new URL("../../apps/cli/dist/bin.cjs", import.meta.url));
if (!PG_DATA) throw new Error("PG_DATA: the data directory of a throwaway PostgreSQL this script may restart");

const asPostgres = (cmd) => execFileSync("su", ["postgres", "-c", cmd], { stdio: "pipe" }).toString();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function startPgBouncer(dir, port, extra) {
  const ini = join(dir, `pgbouncer-${port}.ini`);
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=127.0.0.1 port=${PG_PORT} user=postgres`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = any",
      "pool_mode = transaction",
      "ignore_startup_parameters = extra_float_digits",
      "default_pool_size = 10",
      "max_client_conn = 1000",
      `pidfile = ${dir}/pgbouncer-${port}.pid`,
      `logfile = ${dir}/pgbouncer-${port}.log`,
      ...extra,
      "",
    ].join("\n"),
  );
  chmodSync(ini, 0o644);
  execFileSync(PGBOUNCER_BIN, ["-d", "-u", "postgres", ini]);
  return () => {
    const pid = Number(readFileSync(`${dir}/pgbouncer-${port}.pid`, "utf8"));
    process.kill(pid, "SIGTERM");
  };
}

async function startServe(url, home) {
  const child = spawn(process.execPath, [CLI, "serve"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", CAIRN_HOME: home, DATABASE_URL: url, CAIRN_PUBLIC_URL: "http://127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  for (let i = 0; i < 600 && !/listening on (http:\/\/\S+)/.test(out); i++) await sleep(100);
  const base = /listening on (http:\/\/\S+)/.exec(out)?.[1];
  if (!base) throw new Error(`serve did not start:\n${out}`);
  const token = JSON.parse(readFileSync(join(home, "credentials"), "utf8")).token;
  return { base, token, stop: () => child.kill("SIGTERM"), output: () => out };
}

const receipt = (n) => ({
  changed: `Restart probe ${n} stored`,
  affected: "Nobody: a measurement",
  before: "The probe was not stored.",
  after: "The probe is stored.",
  evidence: [{ label: "Probe", url: "https://example.com/probe" }],
  outcome: { status: "pending", measure_at: "2030-01-01" },
  human_action: "Nothing",
  remaining: [],
  learned: `Probe ${n} ${Math.random()} was stored after the restart.`,
});

async function round(label, extra, port) {
  const dir = mkdtempSync(join(tmpdir(), "cairn-pgb-restart-"));
  chmodSync(dir, 0o777);
  const stopPgBouncer = startPgBouncer(dir, port, extra);
  await sleep(300);
  // A fresh database each round: its first `cairn serve` writes the administrator's token.
  asPostgres(`${PG_BIN}/createdb -h 127.0.0.1 -p ${PG_PORT} -U postgres cairn_restart_${port}`);
  const serve = await startServe(`postgres://postgres@127.0.0.1:${port}/cairn_restart_${port}`, mkdtempSync(join(tmpdir(), "cairn-pgb-home-")));
  let n = 0;
  let running = true;
  const outcomes = [];
  // One writer, a receipt every 100 ms (each bounded at 5 s), as a steady client would.
  const writer = (async () => {
    while (running) {
      const started = performance.now();
      const status = await fetch(`${serve.base}/v1/receipts`, {
        method: "POST",
        headers: { authorization: `Bearer ${serve.token}`, "content-type": "application/json" },
        body: JSON.stringify(receipt(n++)),
        signal: AbortSignal.timeout(5_000),
      }).then(
        (r) => r.status,
        () => 0,
      );
      outcomes.push({ at: started, done: performance.now(), status });
      await sleep(100);
    }
  })();
  await sleep(2_000);
  const restartAt = performance.now();
  asPostgres(`${PG_BIN}/pg_ctl -D ${PG_DATA} -m fast -w restart -o '-p ${PG_PORT} -k ${PG_DATA}/.. -c listen_addresses=127.0.0.1' -l ${PG_DATA}/../pg.log`);
  const upAt = performance.now();
  const deadline = performance.now() + 60_000;
  const recovered = () => outcomes.find((o) => o.at > upAt && o.status === 201);
  while (!recovered() && performance.now() < deadline) await sleep(50);
  await sleep(1_000);
  running = false;
  await writer;
  serve.stop();
  stopPgBouncer();
  const firstGood = recovered();
  const after = outcomes.filter((o) => o.at >= restartAt && (!firstGood || o.at <= firstGood.at));
  return {
    setting: label,
    restart_ms: Math.round(upAt - restartAt),
    restart_to_first_good_write_ms: firstGood ? Math.round(firstGood.done - restartAt) : null,
    postgres_up_to_first_good_write_ms: firstGood ? Math.round(firstGood.done - upAt) : null,
    failed_writes: after.filter((o) => o.status !== 201).length,
    statuses: [...new Set(after.map((o) => o.status))],
  };
}

const settings = [
  ["default (server_login_retry = 15)", []],
  ["server_login_retry = 1", ["server_login_retry = 1", "server_reset_query = DISCARD ALL"]],
];
let port = 56431;
for (let r = 0; r < ROUNDS; r++) {
  for (const [label, extra] of settings) console.log(JSON.stringify(await round(label, extra, port++)));
}
