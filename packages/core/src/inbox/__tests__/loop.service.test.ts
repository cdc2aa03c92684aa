import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { authenticate } from "../../identity/tokens.js";
import { sweepExpired } from "../../lifecycle/sweep.js";
import { startWorker, type Worker } from "../../runtime/worker.js";
import { splitStatements } from "../../store/migrate.js";
import { assignee as assigneeMigration } from "../../store/migrations/0014-assignee.js";
import { aWeekLater, claimableAt, DRIVERS, eventually, minimalReceipt, startReceiver, TEST_PUBLIC_URL, type TestReceiver } from "../../testing/index.js";
import { emitMeasureDue } from "../measure-due.js";
import { outcomeStateOf } from "../rules.js";

const DAY_MS = 86_400_000;
let clock = Date.parse("2026-12-01T09:00:00.000Z");
const at = (iso: string) => {
  clock = Date.parse(iso);
};

describe.each(DRIVERS)("closing the loop (SPEC §20) on %s", (driver) => {
  const fx = useTestWorld(driver, () => new Date(clock));
  const config = { publicUrl: TEST_PUBLIC_URL };
  let receiver: TestReceiver;
  let worker: Worker | undefined;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await worker?.stop(1_000);
    await receiver?.close();
  });
  const asks = (overrides: Record<string, unknown> = {}) => minimalReceipt({ human_action: "Rotate the key", learned: `asks ${Math.random()}`, ...overrides });
  const agentOf = async (user: { ctx(): Parameters<typeof fx.world.cairn.invoke>[1] }) => {
    const minted = await fx.world.cairn.invoke("token_create", user.ctx(), { name: "claude", kind: "agent" });
    const principal = await authenticate(fx.store, minted.token);
    if (!principal) throw new Error("agent token did not authenticate");
    return principal;
  };

  it("an agent names the assignee at create, a person reassigns, an agent may not; each change is one signed artifact.assigned", async () => {
    at("2026-12-01T09:00:00.000Z");
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const eve = await fx.world.user("eve");
    const team = await fx.world.team([sam, kim]);
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: receiver.url, owner: team, events: ["artifact.assigned"] });
    const agent = fx.world.cairn.context(await agentOf(sam), "mcp");

    const created = await fx.world.cairn.invoke("receipt_create", agent, asks({ owner: team, assignee: kim.name }));
    expect(created.assignee).toBe(kim.name);
    const reassigned = await fx.world.cairn.invoke("artifact_assign", sam.ctx(), { id: created.id, assignee: sam.name });
    expect(reassigned.assignee).toBe(sam.name);
    // The same user again changes nothing and announces nothing.
    await fx.world.cairn.invoke("artifact_assign", sam.ctx(), { id: created.id, assignee: sam.name });

    const refused = await rejectionOf(fx.world.cairn.invoke("artifact_assign", agent, { id: created.id, assignee: kim.name }));
    expect(refused.code).toBe("forbidden");
    expect(refused.message).toContain("artifacts:assign");
    const stranger = await rejectionOf(fx.world.cairn.invoke("artifact_assign", eve.ctx(), { id: created.id, assignee: eve.name }));
    expect(stranger.code).toBe("not_found");
    const unknown = await rejectionOf(fx.world.cairn.invoke("artifact_assign", sam.ctx(), { id: created.id, assignee: "nobody-here" }));
    expect([unknown.code, unknown.issues?.map((i) => i.field)]).toEqual(["validation_failed", ["assignee"]]);
    const cannotRead = await rejectionOf(fx.world.cairn.invoke("artifact_assign", sam.ctx(), { id: created.id, assignee: eve.name }));
    expect(cannotRead.issues).toEqual([
      {
        field: "assignee",
        reason: `names no user who may read it: only members of ${team} may be assigned; invite them to ${team} first (cairn team add ${team.slice("team:".length)} NAME)`,
      },
    ]);
    // A name that exists nowhere reads the same: nobody learns which user names exist.
    expect(unknown.issues).toEqual(cannotRead.issues);
    // At create, an assignee who cannot read it is refused with a listed drop receipt.
    const dropped = await rejectionOf(fx.world.cairn.invoke("receipt_create", agent, asks({ owner: team, assignee: eve.name })));
    expect([dropped.code, dropped.issues?.map((i) => i.field), dropped.drop?.category]).toEqual(["validation_failed", ["assignee"], "invalid"]);
    const drops = await fx.world.cairn.invoke("drops_list", sam.ctx(), {});
    expect(drops.items.map((d) => d.id)).toContain(dropped.drop?.id);

    worker = startWorker({ store: fx.store, config: fx.world.cairn.config, pollMs: 20, jobsEveryMs: 60_000, jobs: [] });
    const got = await receiver.waitFor(2);
    // Nothing left that a claim could send again.
    await eventually(async () => (await fx.store.query("select 1 from deliveries where subscription_id = $1 and state = 'pending'", [sub.id])).length === 0);
    expect(await claimableAt(fx.store, sub.id, aWeekLater())).toEqual([]);
    expect(receiver.received).toHaveLength(2);
    for (const r of got) expect(() => new Webhook(sub.secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    const base = { id: created.id, title: created.title, url: created.url, owner: team };
    // Two deliveries of one subscription may be in flight at once (SPEC §19), so they may arrive in either order.
    const events = got.map((r) => JSON.parse(r.body)).map((e) => [e.type, e.data]);
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        ["artifact.assigned", { ...base, assignee: kim.name, previous_assignee: null, by: { user: sam.name, token_name: "claude" } }],
        ["artifact.assigned", { ...base, assignee: sam.name, previous_assignee: kim.name, by: { user: sam.name, token_name: "initial" } }],
      ]),
    );
    const read = await fx.world.cairn.invoke("artifact_read", kim.ctx(), { id: created.id });
    expect(read.assignee).toBe(sam.name);
    const cleared = await fx.world.cairn.invoke("artifact_assign", kim.ctx(), { id: created.id, assignee: null });
    expect(cleared.assignee).toBeNull();
  });

  it("the inbox filters by assignee=me for each of two users, none and NAME; status counts what is yours; human_action is the stored value", async () => {
    at("2026-12-02T09:00:00.000Z");
    const ann = await fx.world.user("ann");
    const bob = await fx.world.user("bob");
    const team = await fx.world.team([ann, bob]);
    const forAnn = await fx.world.cairn.invoke("receipt_create", ann.ctx(), asks({ owner: team, assignee: ann.name }));
    at("2026-12-02T09:00:01.000Z");
    const forBob = await fx.world.cairn.invoke("receipt_create", ann.ctx(), asks({ owner: team, assignee: bob.name }));
    at("2026-12-02T09:00:02.000Z");
    const nobody = await fx.world.cairn.invoke("receipt_create", ann.ctx(), asks({ owner: team, human_action: "Approve the budget" }));
    const ids = async (user: typeof ann, assignee?: string) =>
      (await fx.world.cairn.invoke("inbox_list", user.ctx(), { owner: team, ...(assignee && { assignee }) })).items.map((i) => i.id);
    expect(await ids(ann, "me")).toEqual([forAnn.id]);
    expect(await ids(bob, "me")).toEqual([forBob.id]);
    expect(await ids(bob, "none")).toEqual([nobody.id]);
    expect(await ids(bob, ann.name)).toEqual([forAnn.id]);
    expect(await ids(bob)).toEqual([nobody.id, forBob.id, forAnn.id]);

    const page = await fx.world.cairn.invoke("inbox_list", bob.ctx(), { owner: team });
    expect(page.items.map((i) => [i.human_action, i.assignee])).toEqual([
      ["Approve the budget", null],
      ["Rotate the key", bob.name],
      ["Rotate the key", ann.name],
    ]);
    for (const item of page.items) expect(item.human_action).toBe(item.receipt.metadata?.human_action);
    expect((await fx.world.cairn.invoke("status", bob.ctx(), {})).lines.at(-1)).toBe("Inbox: 3 open (1 yours), oldest under 1 day");
    await fx.world.cairn.invoke("artifact_acknowledge", bob.ctx(), { id: forBob.id });
    expect((await fx.world.cairn.invoke("status", bob.ctx(), {})).inbox).toMatchObject({ open: 2, mine: 0 });
  });

  it("a follow-up closes the original everywhere: followed_by, search's outcome=overdue, outcomes, status and doctor", async () => {
    at("2026-12-10T09:00:00.000Z");
    const lee = await fx.world.user("lee");
    const original = await fx.world.cairn.invoke(
      "receipt_create",
      lee.ctx(),
      asks({ human_action: "Check the error rate", outcome: { status: "pending", measure_at: "2026-12-05" } }),
    );
    const overdue = () => fx.world.cairn.invoke("artifact_search", lee.ctx(), { outcome: "overdue" }).then((p) => p.items.map((a) => a.id));
    expect(await overdue()).toEqual([original.id]);
    const outcomes = await fx.world.cairn.invoke("outcomes_list", lee.ctx(), {});
    expect(outcomes.items.map((o) => [o.id, o.state, o.human_action])).toEqual([[original.id, "overdue", "Check the error rate"]]);
    expect((await fx.world.cairn.invoke("doctor", lee.ctx(), {})).checks.find((c) => c.name === "Inbox")?.summary).toContain("1 outcome overdue");

    const followUp = await fx.world.cairn.invoke(
      "receipt_create",
      lee.ctx(),
      minimalReceipt({ outcome: { status: "measured", summary: "0.3%" }, follows: original.id, learned: "measured it" }),
    );
    const read = await fx.world.cairn.invoke("artifact_read", lee.ctx(), { id: original.id });
    expect(read.followed_by).toEqual([followUp.id]);
    expect(outcomeStateOf(read.metadata as never, read.followed_by.length > 0, new Date(clock))).toBe("closed");
    expect(await overdue()).toEqual([]);
    expect((await fx.world.cairn.invoke("outcomes_list", lee.ctx(), {})).items).toEqual([]);
    expect((await fx.world.cairn.invoke("status", lee.ctx(), {})).inbox.overdue).toBe(0);
    const doctor = await fx.world.cairn.invoke("doctor", lee.ctx(), {});
    expect(doctor.checks.find((c) => c.name === "Inbox")?.summary).toContain("no outcome overdue");
    // A stranger reads neither the original nor who follows it.
    const eve = await fx.world.user("eve");
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_read", eve.ctx(), { id: original.id }))).code).toBe("not_found");
  });

  it("an outcome outlives the default expiry: kept past the old expiry, one receipt.measure_due once due; an explicit expires_in wins", async () => {
    at("2026-12-01T09:00:00.000Z");
    const ida = await fx.world.user("ida");
    const created = await fx.world.cairn.invoke(
      "receipt_create",
      ida.ctx(),
      minimalReceipt({ outcome: { status: "pending", measure_at: "2027-01-15" }, learned: "measure in January" }),
    );
    expect(created.expires_at).toBe("2027-01-22T00:00:00.000Z");
    expect(created.warnings).toContainEqual({
      field: "outcome.measure_at",
      reason: "falls due after the default expiry, so the receipt is kept until 2027-01-22 00:00 UTC (7 days after it falls due)",
    });
    const short = await fx.world.cairn.invoke(
      "receipt_create",
      ida.ctx(),
      minimalReceipt({ outcome: { status: "pending", measure_at: "2027-01-15" }, learned: "short life", expires_in: 3_600 }),
    );
    expect(short.expires_at).toBe(new Date(clock + 3_600_000).toISOString());
    expect(short.warnings.map((w) => w.field)).toContain("outcome.measure_at");

    const events = async () =>
      (await fx.store.query<{ id: string }>("select id from events where type = 'receipt.measure_due' and (payload::jsonb->'data'->>'id') = $1", [created.id]))
        .length;
    const oldExpiry = Date.parse("2026-12-01T09:00:00.000Z") + 7 * DAY_MS;
    at(new Date(oldExpiry + DAY_MS).toISOString());
    await sweepExpired(fx.store, new Date(clock));
    expect(await emitMeasureDue(fx.store, config, new Date(clock))).toBe(0);
    expect((await fx.world.cairn.invoke("artifact_read", ida.ctx(), { id: created.id })).id).toBe(created.id);
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_read", ida.ctx(), { id: short.id }))).code).toBe("not_found");

    at("2027-01-15T00:00:01.000Z");
    await sweepExpired(fx.store, new Date(clock));
    await emitMeasureDue(fx.store, config, new Date(clock));
    await emitMeasureDue(fx.store, config, new Date(clock));
    expect(await events()).toBe(1);
    expect((await fx.world.cairn.invoke("outcomes_list", ida.ctx(), {})).items.map((o) => o.id)).toEqual([created.id]);
    at("2027-01-22T00:00:01.000Z");
    await sweepExpired(fx.store, new Date(clock));
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_read", ida.ctx(), { id: created.id }))).code).toBe("not_found");
    expect(await events()).toBe(1);
  });

  it("migration 0014 gives receipts stored before it the same rule: a pending outcome due after the expiry is kept until 7 days after", async () => {
    at("2026-12-01T09:00:00.000Z");
    const joe = await fx.world.user("joe");
    const later = await fx.world.cairn.invoke(
      "receipt_create",
      joe.ctx(),
      minimalReceipt({ outcome: { status: "pending", measure_at: "2027-02-01" }, learned: "old row" }),
    );
    const plain = await fx.world.cairn.invoke("receipt_create", joe.ctx(), minimalReceipt({ learned: "nothing pending" }));
    // As a row written before 0014 was: the owner's default expiry, a week away.
    const oldExpiry = "2026-12-08T09:00:00.000Z";
    await fx.store.query("update artifacts set expires_at = $2 where id in (select jsonb_array_elements_text($1::jsonb))", [
      JSON.stringify([later.id, plain.id]),
      oldExpiry,
    ]);
    for (const statement of splitStatements(assigneeMigration.sql)) await fx.store.query(statement);
    const rows = await fx.store.query<{ id: string; expires_at: Date | string }>(
      "select id, expires_at from artifacts where id in (select jsonb_array_elements_text($1::jsonb))",
      [JSON.stringify([later.id, plain.id])],
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, new Date(r.expires_at).toISOString()]));
    expect(byId).toEqual({ [later.id]: "2027-02-08T00:00:00.000Z", [plain.id]: oldExpiry });
  });
});
