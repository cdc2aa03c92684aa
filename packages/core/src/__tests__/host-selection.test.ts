import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CairnError } from "../errors.js";
import { openPgStore } from "../store/pg.js";
import type { Store } from "../store/port.js";
import { DRIVERS } from "../testing/index.js";
import { startThrowawayPrimary, startThrowawayStandby, type ThrowawayPostgres } from "../testing/throwaway-postgres.js";

// SPEC §35: a multi-host DATABASE_URL is PostgreSQL's own feature (libpq); the embedded store has one host, so this runs on real servers only.
describe.runIf(DRIVERS.includes("pg"))("a multi-host DATABASE_URL over a primary and its streaming standby", () => {
  let primary: ThrowawayPostgres;
  let standby: ThrowawayPostgres;
  const opened: Store[] = [];
  const open = async (ports: number[], attrs: string) => {
    const store = await openPgStore(`postgres://postgres@${ports.map((p) => `127.0.0.1:${p}`).join(",")}/postgres?target_session_attrs=${attrs}`, {
      timeouts: { connectMs: 1_000, statementMs: 2_000 },
    });
    opened.push(store);
    return store;
  };
  const portOf = async (store: Store) => (await store.query<{ port: number }>("select inet_server_port() as port"))[0]?.port;

  beforeAll(async () => {
    primary = await startThrowawayPrimary();
    standby = await startThrowawayStandby(primary);
  }, 120_000);
  afterAll(async () => {
    for (const store of opened) await store.close().catch(() => {});
    await standby?.stop("immediate");
    await primary?.stop("immediate");
  });

  it.each([
    ["read-write", "primary"],
    ["primary", "primary"],
    ["standby", "standby"],
    ["read-only", "standby"],
    ["prefer-standby", "standby"],
  ] as const)("target_session_attrs=%s connects to the %s, whichever host is listed first", async (attrs, expected) => {
    const want = expected === "primary" ? primary.port : standby.port;
    expect(await portOf(await open([primary.port, standby.port], attrs))).toBe(want);
    expect(await portOf(await open([standby.port, primary.port], attrs))).toBe(want);
  });

  it("any takes the first host that answers, and skips one that is down", async () => {
    expect(await portOf(await open([standby.port, primary.port], "any"))).toBe(standby.port);
    const closedPort = 1; // nothing listens on port 1 of loopback
    expect(await portOf(await open([closedPort, primary.port], "any"))).toBe(primary.port);
  });

  it("prefer-standby falls back to the primary when no standby answers", async () => {
    expect(await portOf(await open([1, primary.port], "prefer-standby"))).toBe(primary.port);
  });

  it("no host fits: a 503 unavailable, not a 500 and not a hang", async () => {
    const store = openPgStore(`postgres://postgres@127.0.0.1:${standby.port}/postgres?target_session_attrs=read-write`, {
      timeouts: { connectMs: 1_000, statementMs: 2_000 },
    });
    await expect(store).rejects.toMatchObject({ code: "unavailable" });
  });

  // Last: it turns the primary read-only and promotes the standby.
  it("after the primary turns read-only (25006) and the standby is promoted, writes find the new primary by themselves", async () => {
    const store = await open([standby.port, primary.port], "read-write");
    await store.query("create table if not exists t (n int)");
    await store.transaction((tx) => tx.query("insert into t values (1)"));
    expect(await portOf(store)).toBe(primary.port);

    await primary.pg("psql", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primary.port),
      "-U",
      "postgres",
      "-c",
      "alter system set default_transaction_read_only = on",
      "-c",
      "select pg_reload_conf()",
    ]);
    // The pool's connections are on the old primary: the write is refused read-only, answered as unavailable (503).
    let refused: unknown;
    for (let i = 0; i < 20 && !refused; i++) {
      await store
        .transaction((tx) => tx.query("insert into t values (2)"))
        .catch((err) => {
          refused = err;
        });
      if (!refused) await new Promise((r) => setTimeout(r, 100));
    }
    expect(refused).toBeInstanceOf(CairnError);
    expect((refused as CairnError).code).toBe("unavailable");
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe("25006");
    // No host is writable until the promotion: still 503.
    await expect(store.query("insert into t values (3)")).rejects.toMatchObject({ code: "unavailable" });

    await standby.promote();
    const started = performance.now();
    let port: number | undefined;
    while (performance.now() - started < 10_000) {
      try {
        await store.transaction((tx) => tx.query("insert into t values (4)"));
        port = await portOf(store);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(port).toBe(standby.port);
    // The first write reached the new primary through replication; the refused ones are nowhere.
    expect(await store.query("select n from t order by n")).toEqual([{ n: 1 }, { n: 4 }]);
  });
});
