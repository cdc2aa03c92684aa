import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCairn } from "../cairn.js";
import { OPERATIONS } from "../runtime/registry.js";
import { openPgStore } from "../store/pg.js";
import type { Store } from "../store/port.js";
import { READ_ROUTING } from "../store/read-routing.js";
import { createTestWorld, DRIVERS, minimalReceipt, type TestWorld } from "../testing/index.js";
import { startThrowawayPrimary, startThrowawayStandby, type ThrowawayPostgres } from "../testing/throwaway-postgres.js";

// SPEC §35: one table says where each operation reads; every operation is in it, and only reads go to a replica.
describe("the read routing table", () => {
  it("names every operation of the registry, and nothing else", () => {
    expect(Object.keys(READ_ROUTING).sort()).toEqual(Object.keys(OPERATIONS).sort());
  });

  it("sends only operations that change nothing to the replica", () => {
    const writesOnReplica = Object.entries(READ_ROUTING)
      .filter(([name, from]) => from === "replica" && OPERATIONS[name as keyof typeof OPERATIONS].mutates)
      .map(([name]) => name);
    expect(writesOnReplica).toEqual([]);
  });

  it("keeps reads by id and the waiter's card on the primary; search, lists, export and runs go to the replica", () => {
    expect([READ_ROUTING.artifact_read, READ_ROUTING.artifact_a2ui, READ_ROUTING.subscription_read]).toEqual(["primary", "primary", "primary"]);
    expect([READ_ROUTING.artifact_search, READ_ROUTING.artifact_export, READ_ROUTING.run_list, READ_ROUTING.inbox_list]).toEqual([
      "replica",
      "replica",
      "replica",
      "replica",
    ]);
  });
});

// A real streaming standby (pg_basebackup -R); the embedded store has no replica, so this runs on PostgreSQL only.
describe.runIf(DRIVERS.includes("pg"))("reads with CAIRN_READ_DATABASE_URL set to a streaming standby", () => {
  let primary: ThrowawayPostgres;
  let standby: ThrowawayPostgres;
  let world: TestWorld;
  let store: Store;
  let cairn: Awaited<ReturnType<typeof openCairn>>;

  beforeAll(async () => {
    primary = await startThrowawayPrimary();
    standby = await startThrowawayStandby(primary);
    cairn = await openCairn({
      databaseUrl: primary.url,
      readDatabaseUrl: standby.url,
      publicUrl: "http://cairn.test",
      logger: { info() {}, warn() {}, error() {} } as never,
    });
    // The world's own core writes the users; the core under test reads with the replica beside it.
    store = await openPgStore(primary.url);
    world = await createTestWorld(store);
  }, 120_000);
  afterAll(async () => {
    await cairn?.close();
    await store?.close();
    await standby?.stop("immediate");
    await primary?.stop("immediate");
  });

  const replayPaused = async (paused: boolean) => {
    await standby.pg("psql", [
      "-h",
      "127.0.0.1",
      "-p",
      String(standby.port),
      "-U",
      "postgres",
      "-Atc",
      `select pg_wal_replay_${paused ? "pause" : "resume"}()`,
    ]);
  };

  it("while the standby lags, a receipt just made is read by id (primary) but not yet found by search, export or the inbox (replica)", async () => {
    const ctx = cairn.context(world.admin.principal, "rest");
    const before = await cairn.invoke(
      "receipt_create",
      ctx,
      minimalReceipt({ changed: "Moved the nightly backup to the new bucket", human_action: "Check the bucket" }),
    );
    // Caught up: the replica answers with it. Until it has replayed the migrations too, its
    // search fails on a table it does not hold yet (42P01): that is "not yet", like no row.
    let found = false;
    for (let i = 0; i < 150 && !found; i++) {
      found = await cairn
        .invoke("artifact_search", ctx, { q: "nightly backup bucket" })
        .then((page) => page.items.some((a) => a.id === before.id))
        .catch(() => false);
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found).toBe(true);

    await replayPaused(true);
    try {
      const lagging = await cairn.invoke(
        "receipt_create",
        ctx,
        minimalReceipt({ changed: "Moved the weekly archive to the cold bucket", human_action: "Check the archive" }),
      );
      // The caller's own write, by id: the primary.
      expect((await cairn.invoke("artifact_read", ctx, { id: lagging.id })).id).toBe(lagging.id);
      // Reads that may lag: the replica, which has not replayed it yet.
      expect((await cairn.invoke("artifact_search", ctx, { q: "weekly archive cold bucket" })).items).toEqual([]);
      expect((await cairn.invoke("inbox_list", ctx, {})).items.map((i: { id: string }) => i.id)).not.toContain(lagging.id);
      expect((await cairn.invoke("inbox_list", ctx, {})).items.map((i: { id: string }) => i.id)).toContain(before.id);
      // A policy just set reads back at once (primary), though the replica is behind.
      await cairn.invoke("policy_set", ctx, { require_evidence: true });
      expect(await cairn.invoke("policy_get", ctx, {})).toMatchObject({ require_evidence: true });
    } finally {
      await replayPaused(false);
    }
  });
});
