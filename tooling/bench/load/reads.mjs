// Read rows: share pages against a bare handler, the CLI against `node -e ''`, and memory under a soak.
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { figure, QUICK } from "../lib.mjs";
import { exampleBody, loadCreate, loadGet } from "./http.mjs";
import { benchDatabase, CLI, rssMb, startCairn, startListening } from "./procs.mjs";

const BARE_SHARE = fileURLToPath(new URL("./bare-share.mjs", import.meta.url));

/** One example receipt through `POST /v1/receipts` of a running server ({ url, token }). */
export async function createOne(cairn) {
  const res = await fetch(`${cairn.url}/v1/receipts`, {
    method: "POST",
    headers: { authorization: `Bearer ${cairn.token}`, "content-type": "application/json" },
    body: exampleBody(),
  });
  if (res.status !== 201) throw new Error(`POST /v1/receipts → ${res.status}`);
  return res.json();
}

async function withCairn(driver, fn) {
  const db = await benchDatabase(driver);
  const cairn = await startCairn(db);
  try {
    return await fn(cairn, db);
  } finally {
    await cairn.stop();
    await db.dispose();
  }
}

export async function benchShare(drivers) {
  for (const driver of drivers) {
    await withCairn(driver, async (cairn, db) => {
      const created = await createOne(cairn);
      const path = new URL(created.url).pathname;
      const page = await fetch(`${cairn.url}${path}`);
      if (page.status !== 200) throw new Error(`GET ${path} → ${page.status}`);
      const file = join(db.home, "share-page.json");
      await writeFile(file, JSON.stringify({ body: await page.text(), type: page.headers.get("content-type") }));
      const bare = await startListening([BARE_SHARE, file], process.env, "bare share handler");
      try {
        const duration = QUICK ? 3 : 10;
        await loadGet(bare.url, path, { duration: 1 });
        await loadGet(cairn.url, path, { duration: 1 });
        const base = await loadGet(bare.url, path, { duration });
        const ours = await loadGet(cairn.url, path, { duration });
        if (ours.bad > 0) throw new Error(`GET ${path} answered ${ours.bad} errors under load`);
        figure({
          name: `GET /s/:token reads/s (${driver}, c32)`,
          value: ours.perSecond,
          unit: "req/s",
          baselineName: "bare handler, same bytes",
          baseline: base.perSecond,
          higherIsBetter: true,
          target: 0.2,
        });
        figure({ name: `GET /s/:token p99 (${driver}, c32)`, value: ours.p99, unit: "ms", baselineName: "bare handler p99", baseline: base.p99 });
        // A reader who has the page asks again with its validator: 304, no body (SPEC §29).
        const etag = page.headers.get("etag");
        if (!etag) throw new Error(`GET ${path} gave no ETag`);
        const revalidated = await loadGet(cairn.url, path, { duration, headers: { "if-none-match": etag }, answered: "3xx" });
        if (revalidated.bad > 0) throw new Error(`GET ${path} with If-None-Match answered ${revalidated.bad} other answers under load`);
        figure({
          name: `GET /s/:token 304 revalidations/s (${driver}, c32)`,
          value: revalidated.perSecond,
          unit: "req/s",
          baselineName: "bare handler, same bytes",
          baseline: base.perSecond,
          higherIsBetter: true,
        });
      } finally {
        await bare.stop();
      }
    });
  }
}

/** Wall time from spawning `cairn mcp` (stdio) of the build `bin` to the answer of its first tools/list. */
function mcpFirstListMs(bin, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, "mcp"], { env, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
    });
    child.stdout.on("data", (d) => {
      out += d;
      for (const line of out.split("\n").slice(0, -1)) {
        const msg = JSON.parse(line);
        if (msg.id === 1) {
          out = out.slice(out.indexOf("\n", out.indexOf(line)) + 1);
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
        } else if (msg.id === 2) {
          const ms = performance.now() - started;
          child.kill();
          if (!msg.result?.tools?.length) reject(new Error(`tools/list → ${line.slice(0, 200)}`));
          else resolve(ms);
        }
      }
    });
    child.once("error", reject);
  });
}

function spawnMs(args, env) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: "ignore" });
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}`);
  return performance.now() - t;
}

const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

/**
 * Median ms of each of `runs` (functions of the call's number), taking turns each round
 * so that a busy moment of the machine costs every one alike, after two unmeasured rounds.
 */
async function alternating(runs, rounds) {
  const times = runs.map(() => []);
  let i = 0;
  for (let round = 0; round < rounds + 2; round++) {
    const order = round % 2 ? [...runs.keys()].reverse() : [...runs.keys()];
    for (const r of order) {
      const ms = await runs[r](i++);
      if (round >= 2) times[r].push(ms);
    }
  }
  return times.map(median);
}

/**
 * The CLI against `node -e ''`, timed in the same rounds. With
 * CAIRN_BENCH_BEFORE=<another checkout's apps/cli/dist/bin.cjs>, that build takes its turn
 * in every round too, and each figure is also given against it.
 */
export async function benchCli() {
  const before = process.env.CAIRN_BENCH_BEFORE;
  const bins = before ? [CLI, before] : [CLI];
  await withCairn("pg", async (cairn) => {
    const env = { ...process.env, CAIRN_URL: cairn.url, CAIRN_TOKEN: cairn.token, CAIRN_HOME: join(tmpdir(), "cairn-bench-nohome") };
    const { id } = await createOne(cairn);
    const dir = await mkdtemp(join(tmpdir(), "cairn-bench-cli-"));
    // `node -e ''` takes its turn in every figure's rounds: each figure's baseline is its own.
    const timed = (rounds, measure) => alternating([() => spawnMs(["-e", ""], process.env), ...bins.map((bin) => (i) => measure(bin, i))], rounds);
    const results = [
      { name: "cairn read ID", ms: await timed(15, (bin) => spawnMs([bin, "read", id], env)), target: 1.3 },
      { name: "cairn --version", ms: await timed(15, (bin) => spawnMs([bin, "--version"], env)) },
      {
        name: "cairn receipt --from FILE",
        ms: await timed(10, async (bin, i) => {
          const file = join(dir, `r${i}.json`);
          await writeFile(file, exampleBody());
          return spawnMs([bin, "receipt", "--from", file], env);
        }),
      },
      { name: "cairn mcp: spawn to first tools/list", ms: await timed(9, (bin) => mcpFirstListMs(bin, env)), targetMs: 350 },
    ];
    await rm(dir, { recursive: true, force: true });
    for (const r of results) {
      const [nodeMs, now, then] = r.ms;
      const extra = r.targetMs ? { target_ms: r.targetMs, ok_ms: now <= r.targetMs } : undefined;
      figure({
        name: r.name,
        value: now,
        unit: "ms",
        baselineName: "node -e '', same rounds",
        baseline: nodeMs,
        ...(r.target && { target: r.target }),
        ...(extra && { extra }),
      });
      if (then !== undefined) figure({ name: `${r.name} vs before`, value: now, unit: "ms", baselineName: "CAIRN_BENCH_BEFORE, same rounds", baseline: then });
    }
  });
}

/** RSS of the server process after N and 10×N receipts (100k in a full run), sampled from /proc. */
export async function benchSoak(drivers) {
  const small = QUICK ? 2_000 : 10_000;
  const large = QUICK ? 10_000 : 100_000;
  for (const driver of drivers) {
    await withCairn(driver, async (cairn) => {
      const start = await rssMb(cairn.pid);
      const first = await loadCreate([cairn.url], cairn.token, { amount: small });
      const atSmall = await rssMb(cairn.pid);
      const rest = await loadCreate([cairn.url], cairn.token, { amount: large - small });
      const atLarge = await rssMb(cairn.pid);
      if (first.bad + rest.bad > 0) throw new Error(`soak: ${first.bad + rest.bad} failed requests`);
      figure({
        name: `RSS after ${large / 1000}k receipts (${driver})`,
        value: atLarge,
        unit: "MB",
        baselineName: `RSS after ${small / 1000}k receipts`,
        baseline: atSmall,
        target: 1.2,
        extra: { rss_at_start_mb: Math.round(start), receipts_per_s: Math.round(rest.perSecond) },
      });
    });
  }
}
