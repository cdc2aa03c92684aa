import type { Migration } from "./types.js";

/**
 * What was wrong with an `invalid` submission's first failing field — missing, malformed,
 * over its limit, or not allowed — so a drop's cause and next action say which (a drop
 * never keeps the value itself). Older drops have none and read with the general wording.
 */
export const dropFaults: Migration = {
  version: "0009_drop_faults",
  sql: `alter table drops add column if not exists fault text`,
};
