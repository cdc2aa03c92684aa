import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectPgAdmin, PG_ADMIN_URL, type PgAdmin } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTokenIn } from "./mcp-harness.js";
import { type ServeProcess, spawnServe } from "./serve-process.js";
import { expectEverySurfaceHealthy, expectEverySurfaceUnavailable } from "./unavailable-surfaces.js";

const drivers = (process.env.CAIRN_TEST_DRIVERS ?? "pglite,pg").split(",").map((d) => d.trim());

/**
 * A PostgreSQL that is up but refuses Cairn's connections, each way an operator can cause
 * it: the database closed to connections (55000), gone by rename (3D000), the role barred
 * from logging in (28000), the role's connection limit reached (53300). Cairn connects as
 * a role of its own that owns its database, so the test can bar it without barring itself.
 */
describe.runIf(drivers.includes("pg"))("cairn serve when PostgreSQL refuses its connections", () => {
  const suffix = randomBytes(5).toString("hex");
  const role = `cairn_refused_${suffix}`;
  const dbName = `cairn_refused_${suffix}`;
  let admin: PgAdmin;
  let serve: ServeProcess;
  let home: string;
  let token: string;

  /** Closes the connections Cairn holds, so its next request has to open new ones. */
  const terminate = (db = dbName) => admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [db]);

  beforeAll(async () => {
    admin = await connectPgAdmin();
    await admin.query(`create role ${role} login`);
    await admin.query(`create database ${dbName} owner ${role}`);
    const url = new URL(PG_ADMIN_URL);
    url.username = role;
    url.pathname = `/${dbName}`;
    home = await mkdtemp(join(tmpdir(), "cairn-home-refused-"));
    serve = await spawnServe({ CAIRN_HOME: home, DATABASE_URL: url.toString(), CAIRN_DB_CONNECT_TIMEOUT_MS: "1000", CAIRN_DB_STATEMENT_TIMEOUT_MS: "1500" });
    token = adminTokenIn(home);
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    await admin?.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.query(`drop database if exists ${dbName}_away with (force)`).catch(() => {});
    await admin.query(`drop role if exists ${role}`).catch(() => {});
    await admin?.close();
    await rm(home, { recursive: true, force: true });
  });

  const unavailable = () => expectEverySurfaceUnavailable(serve.url, home, token);
  const healthy = () => expectEverySurfaceHealthy(serve.url, home, token);

  it("answers normally as its own role", healthy);

  it("55000 the database does not accept connections: 503 unavailable everywhere, then recovers", async () => {
    await admin.query(`alter database ${dbName} allow_connections false`);
    await terminate();
    try {
      await unavailable();
    } finally {
      await admin.query(`alter database ${dbName} allow_connections true`);
    }
    await healthy();
  }, 90_000);

  it("3D000 the database is not there: 503 unavailable everywhere, then recovers", async () => {
    await admin.query(`alter database ${dbName} allow_connections false`);
    await terminate();
    await admin.query(`alter database ${dbName} rename to ${dbName}_away`);
    await admin.query(`alter database ${dbName}_away allow_connections true`);
    try {
      await unavailable();
    } finally {
      await admin.query(`alter database ${dbName}_away allow_connections false`);
      await terminate(`${dbName}_away`);
      await admin.query(`alter database ${dbName}_away rename to ${dbName}`);
      await admin.query(`alter database ${dbName} allow_connections true`);
    }
    await healthy();
  }, 90_000);

  it("28000 the role may not log in: 503 unavailable everywhere, then recovers", async () => {
    await admin.query(`alter role ${role} nologin`);
    await terminate();
    try {
      await unavailable();
    } finally {
      await admin.query(`alter role ${role} login`);
    }
    await healthy();
  }, 90_000);

  it("53300 the role's connection limit is reached: 503 unavailable everywhere, then recovers", async () => {
    await admin.query(`alter role ${role} connection limit 0`);
    await terminate();
    try {
      await unavailable();
    } finally {
      await admin.query(`alter role ${role} connection limit -1`);
    }
    await healthy();
  }, 90_000);

  it("logged each refusal by code, never as an internal error", () => {
    const log = serve.output();
    expect(log).toContain("cairn warn database_unavailable");
    expect(log).not.toMatch(/cairn error internal/);
  });
});
