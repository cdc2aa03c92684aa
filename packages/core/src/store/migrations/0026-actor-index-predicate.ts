import type { Migration } from "./types.js";

/**
 * The drops' actor index (0021) had the predicate `metadata is not null`, which the receipt
 * write's duplicate gate also states. With no statistics (a new or restored database, or
 * autovacuum off) a backend's cached generic plan for the gate could pick that index: it
 * then read every receipt of the owner inside the duplicate window on each write, a cost
 * that grew with the table. Its predicate is now the actor it indexes; the drops query
 * (`… = d.actor->>'id'`, a strict comparison) still implies it, and the gate, which never
 * names the actor, can no longer use it.
 */
export const actorIndexPredicate: Migration = {
  version: "0026_actor_index_predicate",
  // A new name: no two migrations create an index of the same name.
  sql: `
    drop index if exists artifacts_owner_actor_receipt_idx;
    create index artifacts_owner_actor_idx on artifacts (owner, (provenance->'actor'->>'id'), created_at)
      where (provenance->'actor'->>'id') is not null;
  `,
};
