import { connectPgAdmin, DRIVERS, type PgAdmin } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { homeFor, spawnServe } from "./serve-process.js";

async function probe(url: string): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json(), ms: Date.now() - started };
}

/**
 * SPEC §39: `/readyz` says whether to send traffic (503 while the database does not answer
 * within a second, or is not migrated), `/healthz` whether the process lives. On real
 * PostgreSQL a second connection holds an access-exclusive lock on `artifacts`, the table
 * every receipt writes, and then lets go.
 */
describe.each(DRIVERS.filter((d) => d !== "pgbouncer"))("readiness of cairn serve on %s", (driver) => {
  it("is ready once started; on PostgreSQL 503 under a lock on artifacts and with a migration missing, and ready again after", async () => {
    const { env, dispose } = await homeFor(driver);
    const serve = await spawnServe(env);
    const operator: PgAdmin | undefined = driver === "pg" ? await connectPgAdmin(env.DATABASE_URL) : undefined;
    try {
      const ready = await probe(`${serve.url}/readyz`);
      expect(ready).toMatchObject({ status: 200, body: { status: "ready" } });
      expect((await probe(`${serve.url}/healthz`)).status).toBe(200);
      if (!operator) return;

      await operator.query("begin");
      await operator.query("lock table artifacts in access exclusive mode");
      const locked = await probe(`${serve.url}/readyz`);
      expect(locked.status).toBe(503);
      expect(locked.body).toMatchObject({ status: "not_ready", reason: "database_slow" });
      // Answered within the second it waits, plus the request's own time: a probe never hangs.
      expect(locked.ms).toBeLessThan(2_500);
      // Liveness meanwhile: the process and its connection are fine, so it stays up (select 1 needs no lock).
      const alive = await probe(`${serve.url}/healthz`);
      expect(alive).toMatchObject({ status: 200, body: { status: "ok", database: "ok" } });
      await operator.query("rollback");
      expect((await probe(`${serve.url}/readyz`)).status).toBe(200);

      // A release newer than the schema: one of its migrations is not recorded as applied.
      const [last] = await operator.query<{ version: string; checksum: string }>(
        "select version, checksum from schema_migrations order by version desc limit 1",
      );
      if (!last) throw new Error("no migrations recorded");
      await operator.query("delete from schema_migrations where version = $1", [last.version]);
      const pending = await probe(`${serve.url}/readyz`);
      expect(pending).toMatchObject({ status: 503, body: { reason: "migrations_pending" } });
      expect(pending.body.message).toMatch(/^1 of \d+ migrations have not run/);
      await operator.query("insert into schema_migrations (version, checksum) values ($1, $2)", [last.version, last.checksum]);
      expect((await probe(`${serve.url}/readyz`)).status).toBe(200);
    } finally {
      await operator?.query("rollback").catch(() => {});
      await operator?.close().catch(() => {});
      await serve.stop();
      await dispose();
    }
  }, 120_000);
});
