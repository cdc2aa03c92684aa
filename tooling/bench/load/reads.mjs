// Read rows: share pages against a bare handler, the CLI against `node -e ''`, and memory under a soak.
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { figure, medianSpawnMs, QUICK } from "../lib.mjs";
import { exampleBody, loadCreate, loadGet } from "./http.mjs";
import { benchDatabase, CLI, rssMb, startCairn, startListening } from "./procs.mjs";

const BARE_SHARE = fileURLToPath(new URL("./bare-share.mjs", import.meta.url));

async function createOne(cairn) {
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
        figure({ name: `GET /s/:token reads/s (${driver}, c32)`, value: ours.perSecond, unit: "req/s", baselineName: "bare handler, same bytes", baseline: base.perSecond, higherIsBetter: true });
        figure({ name: `GET /s/:token p99 (${driver}, c32)`, value: ours.p99, unit: "ms", baselineName: "bare handler p99", baseline: base.p99 });
      } finally {
        await bare.stop();
      }
    });
  }
}

/** Wall time from spawning `cairn mcp` (stdio) to the answer of its first tools/list. */
function mcpFirstListMs(env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, "mcp"], { env, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } } });
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

export async function benchCli() {
  const nodeMs = medianSpawnMs(["-e", ""]);
  await withCairn("pg", async (cairn) => {
    const env = { ...process.env, CAIRN_URL: cairn.url, CAIRN_TOKEN: cairn.token, CAIRN_HOME: join(tmpdir(), "cairn-bench-nohome") };
    const { id } = await createOne(cairn);
    const readMs = medianSpawnMs([CLI, "read", id], { env });
    figure({ name: "cairn read ID", value: readMs, unit: "ms", baselineName: "node -e ''", baseline: nodeMs, target: 2 });
    figure({ name: "cairn --version", value: medianSpawnMs([CLI, "--version"], { env }), unit: "ms", baselineName: "node -e ''", baseline: nodeMs });

    const dir = await mkdtemp(join(tmpdir(), "cairn-bench-cli-"));
    const times = [];
    for (let i = 0; i < 12; i++) {
      const file = join(dir, `r${i}.json`);
      await writeFile(file, exampleBody());
      const t = performance.now();
      const r = spawnSync(process.execPath, [CLI, "receipt", "--from", file], { env, stdio: "ignore" });
      if (r.status !== 0) throw new Error(`cairn receipt --from exited ${r.status}`);
      if (i >= 2) times.push(performance.now() - t);
    }
    await rm(dir, { recursive: true, force: true });
    times.sort((a, b) => a - b);
    figure({ name: "cairn receipt --from FILE", value: times[Math.floor(times.length / 2)], unit: "ms", baselineName: "node -e ''", baseline: nodeMs });

    const mcp = [];
    for (let i = 0; i < 9; i++) mcp.push(await mcpFirstListMs(env));
    mcp.sort((a, b) => a - b);
    const mcpMs = mcp[Math.floor(mcp.length / 2)];
    figure({ name: "cairn mcp: spawn to first tools/list", value: mcpMs, unit: "ms", baselineName: "node -e ''", baseline: nodeMs, extra: { target_ms: 350, ok_ms: mcpMs <= 350 } });
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
      figure({ name: `RSS after ${large / 1000}k receipts (${driver})`, value: atLarge, unit: "MB", baselineName: `RSS after ${small / 1000}k receipts`, baseline: atSmall, target: 1.2, extra: { rss_at_start_mb: Math.round(start), receipts_per_s: Math.round(rest.perSecond) } });
    });
  }
}
