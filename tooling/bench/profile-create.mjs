// Not a bench row: a CPU profile of `cairn serve` under the create load, for finding the top cause.
// node tooling/bench/profile-create.mjs <pg|pglite> <outDir> [seconds]
import { loadCreate } from "./load/http.mjs";
import { benchDatabase, startCairn } from "./load/procs.mjs";

const [driver = "pg", outDir = "/tmp/prof", seconds = "10"] = process.argv.slice(2);
const db = await benchDatabase(driver);
const cairn = await startCairn(db, {}, ["--cpu-prof", `--cpu-prof-dir=${outDir}`]);
try {
  await loadCreate([cairn.url], cairn.token, { duration: 2 });
  const r = await loadCreate([cairn.url], cairn.token, { duration: Number(seconds) });
  console.log(JSON.stringify({ perSecond: r.perSecond, p50: r.p50, p99: r.p99, bad: r.bad }));
} finally {
  await cairn.stop();
  await db.dispose();
}
