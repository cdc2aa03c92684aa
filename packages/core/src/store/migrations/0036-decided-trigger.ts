import type { Migration } from "./types.js";

/**
 * SPEC §32: the notification trigger `decided` — the people of a receipt's owner hear when
 * its ask is answered. Off by default, like the digest: the one who asked is usually an
 * agent that waits on the answer itself.
 */
export const decidedTrigger: Migration = {
  version: "0036_decided_trigger",
  sql: `
    alter table notify_settings add column if not exists decided boolean not null default false;
  `,
};
