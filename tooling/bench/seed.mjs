// Seed data for the 100k benches: realistic receipts (rendered by core, so bodies,
// checksums and search vectors are what the server would store) written straight to the artifacts table in
// batches, spread over 180 days and over the owners given.
import { randomBytes } from "node:crypto";
import { newId } from "@cairn/core";
import { dueAtOf, prepareReceipt, receiptSearchText } from "@cairn/core/receipt";

const DAY_MS = 86_400_000;
/** How each column's parameter is written: the json ones cast, the search text made a vector as the server's insert does. */
const placeholder = (column, param) =>
  column === 14 ? `to_tsvector('english', ${param}::text)` : `${param}${column === 6 ? "::jsonb" : column === 7 || column === 8 ? "::json" : ""}`;
const TAGS = ["export", "finance", "deploy", "db", "ci", "search", "infra", "docs", "billing", "auth"];
const WORDS = ["retries", "upload", "latency", "index", "cache", "rollout", "migration", "alert", "budget", "quota"];

/** A deterministic pseudo-random stream, so two seeds of the same size hold the same data. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function receiptInput(i, r, now) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const roll = r();
  const outcome =
    roll < 0.4
      ? { status: "measured", summary: `error rate fell by ${Math.floor(r() * 90)}%` }
      : roll < 0.8
        ? { status: "pending", measure_at: new Date(now - 60 * DAY_MS + Math.floor(r() * 120) * DAY_MS).toISOString().slice(0, 10) }
        : { status: "not_applicable" };
  return {
    changed: `Receipt ${i}: the ${pick(WORDS)} ${pick(WORDS)} path now ${pick(WORDS)}s`,
    affected: `Team ${pick(TAGS)} and its services`,
    before: `Before change ${i} the ${pick(WORDS)} was slow.`,
    after: `After change ${i} the ${pick(WORDS)} is fast.`,
    evidence: r() < 0.7 ? [{ label: `CI run ${i}`, url: `https://ci.example.com/runs/${i}` }] : [],
    outcome,
    ...(r() < 0.2 && { human_action: `Approve change ${i}` }),
    remaining: [],
    learned: `${i % 100 === 0 ? "needleword " : ""}seed ${i} ${pick(WORDS)}`,
    tags: [pick(TAGS), pick(TAGS)],
    ...(r() < 0.5 && { details: `## Notes\n\n${"Details of the run. ".repeat(1 + Math.floor(r() * 20))}` }),
  };
}

/**
 * Inserts `count` receipts for `owners` (round robin) in batches of 500, then ANALYZEs
 * the table unless `analyze` is false (to leave it as an embedded install, which has no
 * autovacuum, would be). Returns the number written. About 1% carry the word
 * "needleword", 20% need a human, 40% are pending.
 */
export async function seedReceipts(store, { count, owners, now = Date.now(), batch = 500, onProgress = () => {}, analyze = true }) {
  const r = rng(42);
  const provenance = JSON.stringify({ actor: { id: "tok_seed", name: "seed", kind: "agent" }, on_behalf_of: "seed", model: null, surface: "rest" });
  for (let start = 0; start < count; start += batch) {
    const values = [];
    const params = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const prepared = prepareReceipt(receiptInput(i, r, now));
      if (!prepared.ok) throw new Error(`seed receipt ${i} is invalid: ${JSON.stringify(prepared.rejection.issues)}`);
      const p = prepared.value;
      const created = new Date(now - Math.floor(r() * 180 * DAY_MS));
      const expired = r() < 0.02;
      const row = [
        newId("art", created),
        owners[i % owners.length],
        p.title,
        "markdown",
        p.body,
        p.checksum,
        JSON.stringify(p.tags),
        JSON.stringify(p.metadata),
        provenance,
        randomBytes(24).toString("base64url"),
        created.toISOString(),
        expired ? new Date(now - DAY_MS).toISOString() : new Date(now + 365 * DAY_MS).toISOString(),
        p.details ?? null,
        dueAtOf(p.metadata)?.toISOString() ?? null,
        receiptSearchText(p),
      ];
      const base = params.length;
      values.push(`(${row.map((_, k) => placeholder(k, `$${base + k + 1}`)).join(", ")})`);
      params.push(...row);
    }
    await store.query(
      `insert into artifacts (id, owner, title, share_type, body, checksum, tags, metadata, provenance, share_token,
                              created_at, expires_at, details, measure_due_at, search)
       values ${values.join(", ")}`,
      params,
    );
    onProgress(Math.min(count, start + batch));
  }
  if (analyze) await store.query("analyze artifacts");
  return count;
}
