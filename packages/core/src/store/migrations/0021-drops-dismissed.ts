import type { Migration } from "./types.js";

/**
 * A drop a person dealt with (SPEC §24): `dismissed_at`/`dismissed_by` record who cleared it
 * from doctor's Drops warning (`drops_dismiss`). A drop that the same token fixed — an
 * accepted receipt for the same owner since — is `resolved`; that is read from `artifacts`
 * when drops are counted, so nothing is written for it (the second index answers "has this
 * token stored a receipt for this owner since?"). The first serves the count of open drops.
 */
export const dropsDismissed: Migration = {
  version: "0021_drops_dismissed",
  sql: `
    alter table drops
      add column dismissed_at timestamptz,
      add column dismissed_by text;
    create index drops_owner_open_idx on drops (owner, created_at desc) where dismissed_at is null;
    create index artifacts_owner_actor_receipt_idx on artifacts (owner, (provenance->'actor'->>'id'), created_at)
      where metadata is not null;
  `,
};
