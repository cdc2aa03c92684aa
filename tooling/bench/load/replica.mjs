// A read-heavy mix with and without CAIRN_READ_DATABASE_URL (SPEC §35, ADR 0085), on this machine:
// a throwaway primary and its streaming standby (pg_basebackup -R), both cores in one process each way.
//   node tooling/bench/load/replica.mjs        (about 1½ minutes)
import { openCairn } from "@cairn/core";
import { minimalReceipt, startThrowawayPrimary, startThrowawayStandby } from "@cairn/core/testing";

const CONCURRENCY = 16;
const ROUND_MS = Number(process.env.CAIRN_BENCH_ROUND_MS ?? 8_000);
const ROUNDS = 3;
const SEED = 600;
const quiet = { info() {}, warn() {}, error() {} };
const WORDS = ["backup", "bucket", "certificate", "index", "replica", "vacuum", "rollout", "cache", "quota", "dns"];

const primary = await startThrowawayPrimary();
const standby = await startThrowawayStandby(primary);
const cairns = [];
try {
  const direct = await openCairn({ databaseUrl: primary.url, publicUrl: "http://cairn.test", logger: quiet });
  cairns.push(direct);
  const token = await direct.bootstrapAdmin();
  const principal = await direct.authenticate(token.token);
  const replicated = await openCairn({ databaseUrl: primary.url, readDatabaseUrl: standby.url, publicUrl: "http://cairn.test", logger: quiet });
  cairns.push(replicated);
  let n = 0;
  const receipt = () => {
    const i = ++n;
    const w = WORDS[i % WORDS.length];
    return minimalReceipt({
      changed: `Moved the ${w} job ${i} to the new ${WORDS[(i * 7) % WORDS.length]} pool`,
      ...(i % 3 === 0 && { human_action: `Check ${w} ${i}` }),
    });
  };
  for (let i = 0; i < SEED; i++) await direct.invoke("receipt_create", direct.context(principal, "rest"), receipt());

  // Nine reads in ten: search, the inbox, a list page; one receipt in ten.
  const mix = [
    (c, ctx) => c.invoke("artifact_search", ctx, { q: WORDS[n % WORDS.length], limit: 20 }),
    (c, ctx) => c.invoke("artifact_search", ctx, { tag: "receipt", limit: 50, fields: "summary" }),
    (c, ctx) => c.invoke("inbox_list", ctx, {}),
    (c, ctx) => c.invoke("artifact_search", ctx, { human_action: "needed", limit: 20 }),
    (c, ctx) => c.invoke("outcomes_list", ctx, {}),
    (c, ctx) => c.invoke("artifact_search", ctx, { q: `${WORDS[(n + 3) % WORDS.length]} pool`, limit: 20 }),
    (c, ctx) => c.invoke("drops_list", ctx, {}),
    (c, ctx) => c.invoke("run_list", ctx, {}),
    (c, ctx) => c.invoke("inbox_list", ctx, { state: "all" }),
    (c, ctx) => c.invoke("receipt_create", ctx, receipt()),
  ];
  const round = async (c) => {
    let done = 0;
    const until = performance.now() + ROUND_MS;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, k) => {
        for (let i = k; performance.now() < until; i++) {
          await mix[i % mix.length](c, c.context(principal, "rest"));
          done++;
        }
      }),
    );
    return done / (ROUND_MS / 1000);
  };
  await round(direct);
  await round(replicated);
  const figures = { "primary only": [], "with the replica": [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ["primary only", "with the replica"] : ["with the replica", "primary only"];
    for (const way of order) figures[way].push(await round(way === "primary only" ? direct : replicated));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [way, xs] of Object.entries(figures))
    console.log(`${way}: median ${median(xs).toFixed(0)} operations/s (rounds: ${xs.map((x) => x.toFixed(0)).join(", ")})`);
} finally {
  for (const c of cairns) await c.close().catch(() => {});
  await standby.stop("immediate");
  await primary.stop("immediate");
}
