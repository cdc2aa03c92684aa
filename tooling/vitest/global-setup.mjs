// Runs once per test project before any test file: fail fast, with a clear message,
// when the PostgreSQL server the suite needs is not reachable.
import pg from "pg";

export default async function setup() {
  const drivers = (process.env.CAIRN_TEST_DRIVERS ?? "pglite,pg").split(",");
  if (!drivers.includes("pg")) return;
  const url = process.env.CAIRN_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
  } catch (err) {
    throw new Error(
      `The test suite runs every storage test on PGlite and on PostgreSQL, but ${url} is not reachable (${err.message}). ` +
        "Start PostgreSQL (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start), point CAIRN_TEST_PG_URL at one, " +
        "or run only the embedded store with CAIRN_TEST_DRIVERS=pglite.",
    );
  } finally {
    await client.end().catch(() => {});
  }
}
