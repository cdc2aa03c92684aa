import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createCairn } from "../cairn.js";
import { receiveTraces } from "../otlp/receive.js";
import { savePolicy } from "../policy/store.js";
import type { ReceiptGate } from "../receipt/custom-gate.js";
import type { Store } from "../store/port.js";
import { CONCURRENCY_DRIVERS, DRIVERS, minimalReceipt, TEST_PUBLIC_URL, type TestUser } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

/** The three faults of issue 33 that came from a rule kept in two places or a step done twice. */

const count = async (store: Store, table: "artifacts" | "drops", owner: string) =>
  Number((await store.query<{ n: number }>(`select count(*)::int as n from ${table} where owner = $1`, [owner]))[0]?.n);

/** One span of a new trace, sent as OTLP/JSON: the owner's run of that trace exists afterwards. */
async function runOfNewTrace(user: TestUser): Promise<string> {
  const traceId = randomBytes(16).toString("hex");
  const span = {
    traceId,
    spanId: randomBytes(8).toString("hex"),
    name: "invoke_agent planner",
    startTimeUnixNano: "1764600000000000000",
    endTimeUnixNano: "1764600000500000000",
  };
  const body = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [span] }] }] };
  const reply = await receiveTraces(user.ctx(), { body: Buffer.from(JSON.stringify(body)), contentType: "application/json", contentEncoding: undefined });
  expect(reply.code).toBe("ok");
  return traceId;
}

describe.each(CONCURRENCY_DRIVERS)("an idempotent replay is the first answer on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("byte for byte, when the first named its trace (traceparent) and the run already existed", async () => {
    const sam = await fx.world.user("sam");
    const traceId = await runOfNewTrace(sam);
    const request = { idempotencyKey: "k-traced", traceparent: `00-${traceId}-${"1".repeat(16)}-01` };
    const raw = minimalReceipt({ learned: "traced and replayed" });
    const first = await fx.world.cairn.invoke("receipt_create", sam.ctx("rest", request), raw);
    expect(first.produced_by).toHaveLength(1);
    const again = await fx.world.cairn.invoke("receipt_create", sam.ctx("rest", request), raw);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    // The link is written with the receipt: reading it names the same run.
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: first.id });
    expect(read.produced_by).toEqual(first.produced_by);
  });
});

describe.each(DRIVERS)("the policy re-check on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("a policy that changes during every attempt ends in a conflict that says so, not 'database down', and stores nothing", async () => {
    const sam = await fx.world.user("sam");
    const owner = `user:${sam.name}`;
    let runs = 0;
    // An operator gate runs after the policy was read and before the write: the policy changes in between, every time.
    const churn: ReceiptGate = {
      name: "churn",
      async check() {
        runs++;
        await savePolicy(fx.store, owner, { default_ttl_days: 7 + runs }, { user: sam.name, now: new Date() });
        return null;
      },
    };
    const racing = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, { gates: [churn] });
    const err = await rejectionOf(racing.invoke("receipt_create", racing.context(sam.principal, "rest"), minimalReceipt({ learned: "churn" })));
    expect(err.code).toBe("conflict");
    expect(err.message).toMatch(/policy changed/);
    expect(runs).toBe(3);
    expect(await count(fx.store, "artifacts", owner)).toBe(0);
  });

  it("a policy change the gates did not see, whatever it changed, makes the write read it again", async () => {
    const sam = await fx.world.user("sam");
    const owner = `user:${sam.name}`;
    await savePolicy(fx.store, owner, { require_evidence: false }, { user: sam.name, now: new Date() });
    let changed = false;
    // The first run of the gate turns require_evidence on after the gates passed: the retry must refuse.
    const flip: ReceiptGate = {
      name: "flip",
      async check() {
        if (!changed) await savePolicy(fx.store, owner, { require_evidence: true }, { user: sam.name, now: new Date() });
        changed = true;
        return null;
      },
    };
    const racing = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, { gates: [flip] });
    const err = await rejectionOf(racing.invoke("receipt_create", racing.context(sam.principal, "rest"), minimalReceipt({ learned: "flip" })));
    expect(err.drop).toMatchObject({ category: "policy-vetoed" });
    expect(await count(fx.store, "artifacts", owner)).toBe(0);
  });
});

describe.each(DRIVERS)("the assignee under the write's locks on %s", (driver) => {
  const fx = useTestWorld(driver);
  const asks = (overrides: Record<string, unknown>) => minimalReceipt({ human_action: "Approve the budget", ...overrides });
  const assignedEvents = async (artifactId: string) =>
    (await fx.store.query<{ payload: string }>("select payload from events where type = 'artifact.assigned' order by id"))
      .map((e) => JSON.parse(e.payload).data)
      .filter((d: { id: string }) => d.id === artifactId)
      .map((d: { assignee: string | null; previous_assignee: string | null }) => [d.assignee, d.previous_assignee]);

  it("an assignee who leaves the team between the decision and the write is refused (invalid, with a drop), and nothing is stored", async () => {
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const team = await fx.world.team([sam, kim]);
    // An operator gate runs after the decision and before the write: kim leaves in between.
    const leave: ReceiptGate = {
      name: "leave",
      async check() {
        await fx.world.cairn.invoke("team_member_remove", sam.ctx(), { name: team.slice("team:".length), user: kim.name });
        return null;
      },
    };
    const racing = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, { gates: [leave] });
    const err = await rejectionOf(
      racing.invoke("receipt_create", racing.context(sam.principal, "rest"), asks({ owner: team, assignee: kim.name, learned: "left" })),
    );
    expect([err.code, err.issues]).toEqual([
      "validation_failed",
      [{ field: "assignee", reason: `names no user who may read it: only members of ${team} may be assigned` }],
    ]);
    expect(err.drop).toMatchObject({ category: "invalid", fields: ["assignee"] });
    expect(await count(fx.store, "artifacts", team)).toBe(0);
  });

  it("a member who leaves is assigned nothing of the team any more, each change one artifact.assigned", async () => {
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const team = await fx.world.team([sam, kim]);
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asks({ owner: team, assignee: kim.name, learned: "assigned then left" }));
    const mine = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asks({ owner: team, assignee: sam.name, learned: "stays assigned" }));
    await fx.world.cairn.invoke("team_member_remove", sam.ctx(), { name: team.slice("team:".length), user: kim.name });
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: created.id })).assignee).toBeNull();
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: mine.id })).assignee).toBe(sam.name);
    expect(await assignedEvents(created.id)).toEqual([
      [kim.name, null],
      [null, kim.name],
    ]);
  });
});
