import { describe, expect, it } from "vitest";
import { useTestWorld } from "../../__tests__/helpers.js";
import { runDueJobs } from "../../events/jobs.js";
import { JOBS } from "../../runtime/job-list.js";
import { DRIVERS, minimalReceipt, TEST_PUBLIC_URL } from "../../testing/index.js";
import { emitMeasureDue } from "../measure-due.js";

const DAY_MS = 86_400_000;
let clock = Date.parse("2026-12-01T12:00:00.000Z");
const at = (iso: string) => {
  clock = Date.parse(iso);
};

describe.each(DRIVERS)("outcomes due and measure_due on %s", (driver) => {
  const fx = useTestWorld(driver, () => new Date(clock));
  const config = { publicUrl: TEST_PUBLIC_URL };
  const pending = (measure_at: string, overrides: Record<string, unknown> = {}) =>
    minimalReceipt({ outcome: { status: "pending", measure_at }, learned: `pending ${Math.random()}`, ...overrides });
  const notices = async (id: string) =>
    (await fx.store.query<{ artifact_id: string }>("select artifact_id from measure_due_notices where artifact_id = $1", [id])).length;
  const dueEvents = async (id: string) =>
    (
      await fx.store.query<{ payload: string }>("select payload from events where type = 'receipt.measure_due' and (payload::jsonb->'data'->>'id') = $1", [id])
    ).map((r) => JSON.parse(r.payload));

  it("a date-only measure_at is due from the start of that day (UTC); a date-time from its instant", async () => {
    at("2026-12-01T12:00:00.000Z");
    const sam = await fx.world.user("sam");
    const day = await fx.world.cairn.invoke("receipt_create", sam.ctx(), pending("2026-12-03"));
    const instant = await fx.world.cairn.invoke("receipt_create", sam.ctx(), pending("2026-12-03T09:30:00+02:00"));
    const upcoming = await fx.world.cairn.invoke("outcomes_list", sam.ctx(), { state: "upcoming" });
    expect(upcoming.items.map((o) => [o.id, o.state, o.measure_at, o.due_at])).toEqual([
      [day.id, "upcoming", "2026-12-03", "2026-12-03T00:00:00.000Z"],
      [instant.id, "upcoming", "2026-12-03T09:30:00+02:00", "2026-12-03T07:30:00.000Z"],
    ]);
    expect((await fx.world.cairn.invoke("outcomes_list", sam.ctx(), {})).items).toEqual([]);

    at("2026-12-02T23:59:59.999Z");
    expect((await fx.world.cairn.invoke("outcomes_list", sam.ctx(), {})).items).toEqual([]);
    at("2026-12-03T00:00:00.000Z");
    expect((await fx.world.cairn.invoke("outcomes_list", sam.ctx(), {})).items.map((o) => o.id)).toEqual([day.id]);
    at("2026-12-03T07:30:00.000Z");
    const overdue = await fx.world.cairn.invoke("outcomes_list", sam.ctx(), { limit: 1 });
    expect(overdue.items.map((o) => o.id)).toEqual([day.id]);
    const next = await fx.world.cairn.invoke("outcomes_list", sam.ctx(), { limit: 1, cursor: overdue.next_cursor ?? "" });
    expect(next.items.map((o) => [o.id, o.state])).toEqual([[instant.id, "overdue"]]);
    expect(next.next_cursor).toBeNull();
  });

  it("a pending receipt with a past measure_at is overdue, fires one measure_due with two workers, and a following receipt closes it", async () => {
    at("2026-12-10T08:00:00.000Z");
    const sam = await fx.world.user("sam");
    const past = await fx.world.cairn.invoke("receipt_create", sam.ctx(), pending("2026-12-01"));
    const later = await fx.world.cairn.invoke("receipt_create", sam.ctx(), pending("2026-12-20"));
    const overdue = await fx.world.cairn.invoke("outcomes_list", sam.ctx(), {});
    expect(overdue.items.map((o) => [o.id, o.state])).toEqual([[past.id, "overdue"]]);

    const runs = await Promise.all([emitMeasureDue(fx.store, config, new Date(clock)), emitMeasureDue(fx.store, config, new Date(clock))]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await notices(past.id)).toBe(1);
    expect(await notices(later.id)).toBe(0);
    expect((await dueEvents(past.id)).map((e) => e.data)).toEqual([
      { id: past.id, title: past.title, url: past.url, owner: past.owner, measure_at: "2026-12-01" },
    ]);
    // A later run announces nothing again for it.
    expect(await emitMeasureDue(fx.store, config, new Date(clock))).toBe(0);
    expect(await dueEvents(past.id)).toHaveLength(1);

    const status = await fx.world.cairn.invoke("status", sam.ctx(), {});
    expect(status.inbox).toMatchObject({ overdue: 1, oldest_overdue_id: past.id });
    expect(status.lines.at(-1)).toBe("Inbox: nothing open; 1 outcome overdue");
    const doctor = await fx.world.cairn.invoke("doctor", sam.ctx(), {});
    const inbox = doctor.checks.find((c) => c.name === "Inbox");
    expect(inbox).toMatchObject({ status: "warn", summary: "0 open actions; 1 outcome overdue." });
    expect(inbox?.next_action).toContain(`follows: ${past.id}`);

    const measured = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      minimalReceipt({ outcome: { status: "measured", summary: "error rate fell to 0.3%" }, follows: past.id, learned: "measured" }),
    );
    expect(measured.follows).toEqual({ id: past.id });
    expect((await fx.world.cairn.invoke("outcomes_list", sam.ctx(), {})).items).toEqual([]);
    const all = await fx.world.cairn.invoke("outcomes_list", sam.ctx(), { state: "all" });
    expect(all.items.map((o) => [o.id, o.state])).toEqual([
      [past.id, "closed"],
      [later.id, "upcoming"],
    ]);
    expect((await fx.world.cairn.invoke("doctor", sam.ctx(), {})).checks.find((c) => c.name === "Inbox")?.status).toBe("ok");
  });

  it("fires for every overdue receipt once across many workers, and never for one a receipt follows before it is due", async () => {
    at("2026-12-15T00:00:00.000Z");
    const ada = await fx.world.user("ada");
    const due = [];
    for (let i = 0; i < 5; i++) due.push(await fx.world.cairn.invoke("receipt_create", ada.ctx(), pending("2026-12-16")));
    const early = await fx.world.cairn.invoke("receipt_create", ada.ctx(), pending("2026-12-16"));
    await fx.world.cairn.invoke("receipt_create", ada.ctx(), minimalReceipt({ follows: early.id, learned: "measured early" }));
    at("2026-12-16T00:00:00.000Z");
    const runs = await Promise.all(Array.from({ length: 4 }, () => emitMeasureDue(fx.store, config, new Date(clock))));
    const ids = due.map((d) => d.id);
    const rows = await fx.store.query<{ artifact_id: string }>(
      "select artifact_id from measure_due_notices where artifact_id in (select jsonb_array_elements_text($1::jsonb))",
      [JSON.stringify([...ids, early.id])],
    );
    expect(rows.map((r) => r.artifact_id).sort()).toEqual([...ids].sort());
    expect(runs.reduce((a, b) => a + b, 0)).toBe(5);
    for (const id of ids) expect(await dueEvents(id)).toHaveLength(1);
    expect(await dueEvents(early.id)).toEqual([]);
  });

  it("runs as the measure_due job of every worker: two workers' ticks announce it once", async () => {
    at("2027-01-10T00:00:00.000Z");
    const lee = await fx.world.user("lee");
    const past = await fx.world.cairn.invoke("receipt_create", lee.ctx(), pending("2027-01-09"));
    const worker = () => runDueJobs({ store: fx.store, config, now: () => new Date(clock), log: () => {}, signal: new AbortController().signal }, JOBS);
    const ran = await Promise.all([worker(), worker()]);
    expect(ran.flat().filter((name) => name === "measure_due")).toEqual(["measure_due"]);
    expect(await dueEvents(past.id)).toHaveLength(1);
  });

  it("status and doctor report open actions and warn once the oldest is older than 3 days", async () => {
    at("2026-12-20T00:00:00.000Z");
    const kim = await fx.world.user("kim");
    const first = await fx.world.cairn.invoke("receipt_create", kim.ctx(), minimalReceipt({ human_action: "Rotate the key", learned: "a" }));
    expect((await fx.world.cairn.invoke("status", kim.ctx(), {})).lines.at(-1)).toBe("Inbox: 1 open (0 yours), oldest under 1 day");
    at("2026-12-21T00:00:00.000Z");
    await fx.world.cairn.invoke("receipt_create", kim.ctx(), minimalReceipt({ human_action: "Rotate the other key", learned: "b" }));
    at("2026-12-22T00:00:00.000Z");
    const status = await fx.world.cairn.invoke("status", kim.ctx(), {});
    expect(status.lines.at(-1)).toBe("Inbox: 2 open (0 yours), oldest 2 days");
    expect(status.inbox).toEqual({ open: 2, mine: 0, oldest_open_days: 2, oldest_open_id: first.id, stale: 0, overdue: 0, oldest_overdue_id: null });
    expect((await fx.world.cairn.invoke("doctor", kim.ctx(), {})).checks.find((c) => c.name === "Inbox")?.status).toBe("ok");

    at(new Date(Date.parse("2026-12-23T00:00:00.000Z") + 1).toISOString());
    const doctor = (await fx.world.cairn.invoke("doctor", kim.ctx(), {})).checks.find((c) => c.name === "Inbox");
    expect(doctor).toMatchObject({ status: "warn", summary: "2 open actions (1 older than 3 days); no outcome overdue." });
    expect(doctor?.next_action).toContain(`cairn ack ${first.id}`);
    await fx.world.cairn.invoke("artifact_acknowledge", kim.ctx(), { id: first.id });
    expect((await fx.world.cairn.invoke("status", kim.ctx(), {})).lines.at(-1)).toBe("Inbox: 1 open (0 yours), oldest 2 days");
    expect((await fx.world.cairn.invoke("doctor", kim.ctx(), {})).checks.find((c) => c.name === "Inbox")?.status).toBe("ok");
    clock += DAY_MS;
  });

  it("doctor warns on an ask open for more than 3 days, names it and how to answer, and stops once it is answered", async () => {
    at("2027-01-10T00:00:00.000Z");
    const ria = await fx.world.user("ria");
    const asked = await fx.world.cairn.invoke("receipt_create", ria.ctx("mcp"), {
      ...minimalReceipt({ human_action: "Approve the schema change", learned: "c" }),
      ask: {
        options: [
          { id: "approve", label: "Approve" },
          { id: "reject", label: "Reject" },
        ],
      },
    });
    at("2027-01-12T00:00:00.000Z");
    const young = (await fx.world.cairn.invoke("doctor", ria.ctx(), {})).checks.find((c) => c.name === "Inbox");
    expect(young?.summary).not.toContain("ask");

    at("2027-01-14T12:00:00.000Z");
    const doctor = (await fx.world.cairn.invoke("doctor", ria.ctx(), {})).checks.find((c) => c.name === "Inbox");
    expect(doctor?.status).toBe("warn");
    expect(doctor?.summary).toContain(`1 ask open more than 3 days, the oldest "${asked.title}" (4 days)`);
    expect(doctor?.next_action).toContain(`cairn decide ${asked.id} OPTION`);

    await fx.world.cairn.invoke("artifact_decide", ria.ctx(), { id: asked.id, option: "reject" });
    const after = (await fx.world.cairn.invoke("doctor", ria.ctx(), {})).checks.find((c) => c.name === "Inbox");
    expect(after?.status).toBe("ok");
    expect(after?.summary).not.toContain("ask");
  });
});
