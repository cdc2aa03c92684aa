import { MIGRATIONS } from "../store/migrations/index.js";
import type { Store } from "../store/port.js";

/** How long the database may take to answer the readiness query (SPEC §39). */
export const READY_WAIT_MS = 1_000;

export type Readiness = { ready: true } | { ready: false; reason: "database_unreachable" | "database_slow" | "migrations_pending"; message: string };

const VERSIONS = MIGRATIONS.map((m) => m.version);

/**
 * Whether this process should get traffic: the database answers a trivial query on a
 * table every write uses (so a lock on it, a stuck server or a lost connection counts)
 * within READY_WAIT_MS, and every migration this release knows is applied. The query's
 * own statement timeout ends it on the server too, so a probe never holds a connection
 * for longer than it waits.
 */
export async function checkReadiness(store: Store): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), READY_WAIT_MS);
  });
  const probe = store.transaction(async (tx) => {
    await tx.query(`set local statement_timeout = ${READY_WAIT_MS}`);
    const [row] = await tx.query<{ applied: number }>(
      `select (select count(*)::int from schema_migrations where version = any($1::text[])) as applied,
              exists (select 1 from artifacts limit 1) as touched`,
      [VERSIONS],
    );
    return row?.applied ?? 0;
  });
  try {
    const answer = await Promise.race([probe, late]);
    if (answer === "late") {
      probe.catch(() => {});
      return { ready: false, reason: "database_slow", message: `The database did not answer within ${READY_WAIT_MS} ms.` };
    }
    if (answer < VERSIONS.length) {
      return {
        ready: false,
        reason: "migrations_pending",
        message: `${VERSIONS.length - answer} of ${VERSIONS.length} migrations have not run on this database.`,
      };
    }
    return { ready: true };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // A missing schema_migrations (42P01) is a database nothing migrated yet.
    if (code === "42P01") return { ready: false, reason: "migrations_pending", message: "The migrations have not run on this database." };
    if (code === "57014") return { ready: false, reason: "database_slow", message: `The database did not answer within ${READY_WAIT_MS} ms.` };
    return { ready: false, reason: "database_unreachable", message: "The database is down or refusing connections." };
  } finally {
    clearTimeout(timer);
  }
}
