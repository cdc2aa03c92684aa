import { describe, expect, it } from "vitest";
import { SQL_FUNCTIONS } from "../store/sql/functions.generated.js";
import { DRIVERS } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

/**
 * The receipt write's duplicate gate runs inside cairn_write_receipt, whose plans a
 * connection caches: after a few calls it keeps one generic plan, made without the
 * values. With no statistics (a new or restored database, autovacuum off) that plan once
 * picked another index of the owner's receipts and read every receipt of the owner in the
 * duplicate window on every write — a write that slowed as the table grew. The gate must
 * read only receipts with the same checksum, whatever plan is cached.
 */

/** The gate's statement as the installed function runs it, its variables as parameters. */
function gateStatement(): string {
  const fn = SQL_FUNCTIONS.find((f) => f.name === "cairn_write_receipt")?.sql ?? "";
  const m = /(select x\.id, x\.share_token) into dup (from artifacts x[\s\S]*?limit 1);/.exec(fn);
  if (!m) throw new Error("the duplicate gate's select is not in cairn_write_receipt.sql");
  return `${m[1]} ${m[2]}`.replaceAll("a->>", "$1::jsonb->>").replaceAll("w->>", "$2::jsonb->>").replace("at_time", "$3::timestamptz");
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

/** Rows the plan's scans of `artifacts` looked at: those returned plus those its filters threw away. */
function rowsRead(node: PlanNode): number {
  const own = /Scan/.test(node["Node Type"]) ? (node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) : 0;
  return own + (node.Plans ?? []).reduce((n, p) => n + rowsRead(p), 0);
}

describe.each(DRIVERS)("the duplicate gate's cached plan on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("reads no receipt of the owner but those with the same checksum, with no statistics and a generic plan", async () => {
    // 100 receipts of one owner from one actor, never analyzed: the size at which the generic
    // plan chose the drops' actor index before its predicate named the actor (0026).
    await fx.store.query(
      `insert into artifacts (id, owner, title, share_type, body, checksum, metadata, provenance, share_token, created_at, search)
       select 'art_gate_' || i, 'user:gate', 'r' || i, 'markdown', repeat('a receipt body of some length ', 28) || i, 'sha256:' || encode(sha256(i::text::bytea), 'hex'), json_build_object('schema', 'receipt/v1', 'pad', repeat('x', 700)),
              '{"actor":{"id":"agent:gate"}}', 'shr_gate_' || i, now() - make_interval(secs => i), to_tsvector('english', 'r' || i)
         from generate_series(1, 100) i`,
    );
    const owner = JSON.stringify({ owner: "user:gate", checksum: "sha256:none", follows: null });
    const since = JSON.stringify({ duplicate_since: new Date(Date.now() - 86_400_000).toISOString() });
    const plan = await fx.store.transaction(async (tx) => {
      await tx.query("set local plan_cache_mode = force_generic_plan");
      await tx.query(`prepare cairn_gate_probe(jsonb, jsonb, timestamptz) as ${gateStatement()}`);
      try {
        // Literals, not bind parameters: the values are this test's own JSON, without quotes.
        const [row] = await tx.query<{ "QUERY PLAN": unknown }>(`explain (analyze, format json) execute cairn_gate_probe('${owner}', '${since}', now())`);
        const json = row?.["QUERY PLAN"];
        return (typeof json === "string" ? JSON.parse(json) : json) as Array<{ Plan: PlanNode }>;
      } finally {
        await tx.query("deallocate cairn_gate_probe").catch(() => {});
      }
    });
    expect(rowsRead(plan[0]?.Plan as PlanNode)).toBe(0);
  });
});
