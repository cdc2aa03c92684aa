// Not a bench row: a CPU profile of `cairn serve` under the share-page load (`GET /s/:token`, c32).
// node tooling/bench/profile-share.mjs <pg|pglite> <outDir> [seconds]
import { exampleBody, loadGet } from "./load/http.mjs";
import { benchDatabase, startCairn } from "./load/procs.mjs";

const [driver = "pg", outDir = "/tmp/prof-share", seconds = "10"] = process.argv.slice(2);
const db = await benchDatabase(driver);
const cairn = await startCairn(db, {}, ["--cpu-prof", `--cpu-prof-dir=${outDir}`]);
try {
  const res = await fetch(`${cairn.url}/v1/receipts`, {
    method: "POST",
    headers: { authorization: `Bearer ${cairn.token}`, "content-type": "application/json" },
    body: exampleBody(),
  });
  const path = new URL((await res.json()).url).pathname;
  await loadGet(cairn.url, path, { duration: 2 });
  const r = await loadGet(cairn.url, path, { duration: Number(seconds) });
  console.log(JSON.stringify({ perSecond: r.perSecond, p50: r.p50, p99: r.p99, bad: r.bad }));
} finally {
  await cairn.stop();
  await db.dispose();
}
