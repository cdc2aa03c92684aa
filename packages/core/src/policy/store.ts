import type { Sql } from "../store/port.js";
import { DEFAULT_POLICY, type Policy, type PolicySettings, type RevisedPolicy } from "./schemas.js";

const COLUMNS = "owner, secrets, entropy_detection, require_evidence, default_ttl_days";

/** An owner's policy; an owner who never set one has the defaults. */
export async function loadPolicy(sql: Sql, owner: string): Promise<Policy> {
  const [row] = await sql.query<Policy>(`select ${COLUMNS} from policies where owner = $1`, [owner]);
  return row ?? { owner, ...DEFAULT_POLICY };
}

/** An owner's policy with the revision it was read at (0: the owner never set one). */
export async function loadRevisedPolicy(sql: Sql, owner: string): Promise<RevisedPolicy> {
  const [row] = await sql.query<Policy & { revision: string | number }>(`select ${COLUMNS}, revision from policies where owner = $1`, [owner]);
  if (!row) return { policy: { owner, ...DEFAULT_POLICY }, revision: 0 };
  const { revision, ...policy } = row;
  // bigint: a string from pg, a number from PGlite.
  return { policy, revision: Number(revision) };
}

/** Policies of several owners at once (doctor cross-references live policies). */
export async function loadPolicies(sql: Sql, owners: readonly string[]): Promise<Map<string, Policy>> {
  const rows = await sql.query<Policy>(`select ${COLUMNS} from policies where owner in (select jsonb_array_elements_text($1::jsonb))`, [
    JSON.stringify(owners),
  ]);
  const byOwner = new Map(rows.map((r) => [r.owner, r]));
  return new Map(owners.map((o) => [o, byOwner.get(o) ?? { owner: o, ...DEFAULT_POLICY }]));
}

/** Writes the given fields in one statement; omitted ones keep their stored (or default) values. */
export async function savePolicy(sql: Sql, owner: string, patch: Partial<PolicySettings>, by: { user: string; now: Date }): Promise<Policy> {
  const [row] = await sql.query<Policy>(
    `insert into policies (${COLUMNS}, updated_at, updated_by)
     values ($1, coalesce($2::text, $7::text), coalesce($3::boolean, $8::boolean), coalesce($4::boolean, $9::boolean),
             coalesce($5::integer, $10::integer), $6, $11)
     on conflict (owner) do update set
       secrets = coalesce($2::text, policies.secrets),
       entropy_detection = coalesce($3::boolean, policies.entropy_detection),
       require_evidence = coalesce($4::boolean, policies.require_evidence),
       default_ttl_days = coalesce($5::integer, policies.default_ttl_days),
       updated_at = $6, updated_by = $11
     returning ${COLUMNS}`,
    [
      owner,
      patch.secrets ?? null,
      patch.entropy_detection ?? null,
      patch.require_evidence ?? null,
      patch.default_ttl_days ?? null,
      by.now.toISOString(),
      DEFAULT_POLICY.secrets,
      DEFAULT_POLICY.entropy_detection,
      DEFAULT_POLICY.require_evidence,
      DEFAULT_POLICY.default_ttl_days,
      by.user,
    ],
  );
  if (!row) throw new Error("policy upsert returned no row");
  return row;
}
