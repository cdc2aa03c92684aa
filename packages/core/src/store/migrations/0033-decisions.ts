import type { Migration } from "./types.js";

/**
 * Decisions (SPEC §32, ADR 0079): a receipt's ask, its deadline and its answer live on the
 * artifact row beside `assignee` — live state, never part of the immutable body. The
 * answer is one conditional `update … where decision is null`, so the first answer wins
 * across processes without a lock table. `answer_by` is a column (also inside `ask`) so
 * the expiry job finds the asks that just ran out through the partial index, which holds
 * open asks only and so stays small.
 */
export const decisions: Migration = {
  version: "0033_decisions",
  sql: `
    alter table artifacts add column if not exists ask jsonb;
    alter table artifacts add column if not exists answer_by timestamptz;
    alter table artifacts add column if not exists decision jsonb;
    create index if not exists artifacts_open_asks_idx on artifacts (answer_by, id) where ask is not null and decision is null;
  `,
};
