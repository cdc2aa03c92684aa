import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fanOut } from "../notify/fanout.js";
import { migrate } from "../store/migrate.js";
import type { Store } from "../store/port.js";
import { DRIVERS, openTestStore } from "../testing/index.js";

/**
 * ADR 0062: the events waiting for the notifications' fan-out are rows of `fanout_queue`.
 * The fan-out takes each once and never writes the event again; an installation upgraded
 * from `events.notified_at` keeps every event it had not fanned out yet.
 */
describe.each(DRIVERS)("the fan-out queue on %s", (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore(driver);
  });
  afterEach(async () => store.close());

  let n = 0;
  /** An event as every writer records one: through cairn_record_event, in its own transaction. */
  const record = async (now: Date) => {
    const id = `evt_test${String(++n).padStart(4, "0")}`;
    const payload = JSON.stringify({ type: "artifact.deleted", id, data: { id: `art_${n}` } });
    await store.query("select cairn_record_event($1::jsonb)", [
      JSON.stringify({ id, type: "artifact.deleted", owner: "user:nobody", payload, created_at: now.toISOString() }),
    ]);
    return id;
  };
  const queued = async () => (await store.query<{ event_id: string }>("select event_id from fanout_queue order by event_id")).map((r) => r.event_id);
  const versionOf = async (id: string) => (await store.query<{ v: string }>("select xmin::text as v from events where id = $1", [id]))[0]?.v;

  it("takes each recorded event once, and leaves the event's row as the write stored it", async () => {
    const now = new Date("2026-12-02T10:00:00Z");
    const id = await record(now);
    expect(await queued()).toEqual([id]);
    const before = await versionOf(id);
    expect(await fanOut(store, now)).toBe(1);
    expect(await queued()).toEqual([]);
    // The same row version: the fan-out wrote nothing to the event (a non-HOT update of its payload before 0027).
    expect(await versionOf(id)).toBe(before);
    expect(await fanOut(store, now)).toBe(0);
  });

  it("an installation upgraded from notified_at still fans out the events it had not, and only those", async () => {
    const now = new Date("2026-12-02T10:00:00Z");
    const [done, waiting] = [await record(now), await record(now)];
    // The schema as 0026 left it: notified_at and its partial index, no queue.
    await store.query("drop table fanout_queue");
    await store.query("alter table events add column notified_at timestamptz");
    await store.query("create index events_unnotified_idx on events (id) where notified_at is null");
    await store.query("update events set notified_at = $2 where id = $1", [done, now.toISOString()]);
    await store.query("delete from schema_migrations where version = '0027_fanout_queue'");

    expect(await migrate(store)).toEqual(["0027_fanout_queue"]);
    expect(await queued()).toEqual([waiting]);
    const columns = await store.query("select 1 from information_schema.columns where table_name = 'events' and column_name = 'notified_at'");
    expect(columns).toEqual([]);
    expect(await fanOut(store, now)).toBe(1);
    expect(await queued()).toEqual([]);
  });
});
