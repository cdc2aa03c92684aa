// Not a bench row: a CPU profile of `cairn serve` under the traces load (OTLP/HTTP protobuf,
// each request a new 50-span agent trace, c8), for finding where a span's CPU goes.
// node tooling/bench/profile-traces.mjs <pg|pglite> <outDir> [seconds]
import autocannon from "autocannon";
import { agentTraceBody, otlpTypes } from "./load/otlp-body.mjs";
import { benchDatabase, startCairn } from "./load/procs.mjs";

const [driver = "pg", outDir = "/tmp/prof-traces", seconds = "10"] = process.argv.slice(2);
const types = otlpTypes();
const db = await benchDatabase(driver);
const cairn = await startCairn(db, {}, ["--cpu-prof", `--cpu-prof-dir=${outDir}`]);
const load = (duration) =>
  autocannon({
    url: cairn.url,
    connections: 8,
    duration,
    timeout: 30,
    requests: [
      {
        method: "POST",
        path: "/v1/traces",
        headers: { authorization: `Bearer ${cairn.token}`, "content-type": "application/x-protobuf" },
        setupRequest: (req) => ({ ...req, body: agentTraceBody(types, 50) }),
      },
    ],
  });
try {
  await load(2);
  const r = await load(Number(seconds));
  console.log(JSON.stringify({ spansPerSecond: (r["2xx"] * 50) / r.duration, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts }));
} finally {
  await cairn.stop();
  await db.dispose();
}
