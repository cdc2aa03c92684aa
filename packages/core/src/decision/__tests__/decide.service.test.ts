import { describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { authenticate } from "../../identity/tokens.js";
import { pagesOf } from "../../runtime/paging.js";
import { PLANTED } from "../../secrets/__tests__/planted.js";
import type { DsseEnvelope } from "../../signing/dsse.js";
import { listPublicKeys } from "../../signing/keys.js";
import { verifyLine } from "../../signing/verify.js";
import { TEST_PUBLIC_URL } from "../../testing/fixtures.js";
import { DRIVERS, minimalReceipt } from "../../testing/index.js";
import { expireAsks } from "../expire-job.js";

const ASK = {
  options: [
    { id: "approve", label: "Approve" },
    { id: "reject", label: "Reject" },
  ],
};
let n = 0;
const asking = (ask: Record<string, unknown> = ASK, extra: Record<string, unknown> = {}) => ({
  ...minimalReceipt({ learned: `ask ${++n}` }),
  human_action: "Approve the migration?",
  ask,
  ...extra,
});

describe.each(DRIVERS)("decisions on %s", (driver) => {
  let clock = new Date("2026-12-07T10:00:00.000Z");
  const fx = useTestWorld(driver, () => clock);
  const events = async (id: string, type: string) =>
    (await fx.store.query<{ payload: string }>("select payload from events where type = $1 and payload like $2", [type, `%${id}%`])).map(
      (e) => JSON.parse(e.payload).data,
    );

  it("records the first answer with who, where and when; it acknowledges, and is announced once", async () => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx("mcp"), asking());
    const decided = await fx.world.cairn.invoke("artifact_decide", sam.ctx("cli"), { id: receipt.id, option: "approve", comment: "Go ahead" });
    const decision = {
      state: "decided",
      option: "approve",
      label: "Approve",
      comment: "Go ahead",
      by: { user: sam.name, token_name: "initial" },
      via: "cli",
      at: clock.toISOString(),
    };
    expect(decided.decision).toEqual(decision);
    expect(decided.acknowledgements).toEqual([{ by: { user: sam.name, token_name: "initial" }, at: clock.toISOString(), note: null }]);
    const { state: _s, ...answer } = decision;
    expect(await events(receipt.id, "receipt.decided")).toEqual([{ id: receipt.id, title: receipt.title, url: receipt.url, owner: receipt.owner, ...answer }]);
    expect(await events(receipt.id, "receipt.acknowledged")).toHaveLength(1);

    // The same person, the same option: the same answer, nothing new.
    const again = await fx.world.cairn.invoke("artifact_decide", sam.ctx("rest"), { id: receipt.id, option: "approve" });
    expect(again.decision).toEqual(decision);
    expect(await events(receipt.id, "receipt.decided")).toHaveLength(1);
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: receipt.id });
    expect(read.decision).toEqual(decision);
  });

  it("refuses a later different answer with 409 already_decided naming who chose what and when", async () => {
    const sam = await fx.world.user("sam");
    const ana = await fx.world.user("ana");
    const team = await fx.world.team([sam, ana]);
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking(ASK, { owner: team }));
    await fx.world.cairn.invoke("artifact_decide", sam.ctx(), { id: receipt.id, option: "approve" });
    for (const [who, option] of [
      [ana, "reject"],
      [ana, "approve"],
      [sam, "reject"],
    ] as const) {
      const err = await rejectionOf(fx.world.cairn.invoke("artifact_decide", who.ctx(), { id: receipt.id, option }));
      expect(err.code).toBe("already_decided");
      expect(err.message).toBe(`This ask was already answered: ${sam.name} chose "Approve" (approve) at 2026-12-07 10:00 UTC. The first answer is final.`);
    }
    expect(await events(receipt.id, "receipt.decided")).toHaveLength(1);
  });

  it("lets only a person who may acknowledge answer: an agent gets 403 naming the rule, a stranger 404", async () => {
    const sam = await fx.world.user("sam");
    const eve = await fx.world.user("eve");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking());
    const minted = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "ci", kind: "agent" });
    const agent = await authenticate(fx.store, minted.token);
    if (!agent) throw new Error("the agent token did not authenticate");
    const refused = await rejectionOf(fx.world.cairn.invoke("artifact_decide", fx.world.cairn.context(agent, "rest"), { id: receipt.id, option: "approve" }));
    expect(refused.code).toBe("forbidden");
    expect(refused.message).toContain("decisions:write");
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_decide", eve.ctx(), { id: receipt.id, option: "approve" }))).code).toBe("not_found");
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: receipt.id })).decision).toBeNull();
  });

  it.each([
    ["an option the ask does not offer", ASK, { option: "maybe" }, "option"],
    ["a comment where the ask allows none", { ...ASK, comment: "none" }, { option: "approve", comment: "why not" }, "comment"],
    ["no comment where the ask requires one", { ...ASK, comment: "required" }, { option: "approve" }, "comment"],
    ["a comment over 1,000 characters", ASK, { option: "approve", comment: "x".repeat(1001) }, "comment"],
  ])("refuses %s with a 422 naming the field", async (_name, ask, answer, field) => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking(ask));
    const err = await rejectionOf(fx.world.cairn.invoke("artifact_decide", sam.ctx(), { id: receipt.id, ...answer }));
    expect(err.code).toBe("validation_failed");
    expect(err.issues?.map((i) => i.field)).toEqual([field]);
  });

  it("refuses to decide a receipt that asks nothing with options", async () => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), { ...minimalReceipt({ learned: "no ask" }), human_action: "Look" });
    const err = await rejectionOf(fx.world.cairn.invoke("artifact_decide", sam.ctx(), { id: receipt.id, option: "approve" }));
    expect(err.issues?.[0]?.field).toBe("id");
  });

  it("redacts a secret in the comment", async () => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking());
    const decided = await fx.world.cairn.invoke("artifact_decide", sam.ctx(), { id: receipt.id, option: "reject", comment: `leaked ${PLANTED.ghp}` });
    expect(decided.decision?.state === "decided" && decided.decision.comment).not.toContain(PLANTED.ghp);
  });

  it("after answer_by: 409 expired, and the worker marks and announces it once however many run", async () => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking({ ...ASK, answer_by: "1h" }));
    const deadline = new Date(clock.getTime() + 3_600_000).toISOString();
    clock = new Date(clock.getTime() + 2 * 3_600_000);
    const err = await rejectionOf(fx.world.cairn.invoke("artifact_decide", sam.ctx(), { id: receipt.id, option: "approve" }));
    expect(err.code).toBe("expired");
    const config = { publicUrl: TEST_PUBLIC_URL };
    const counts = await Promise.all([expireAsks(fx.store, config, clock), expireAsks(fx.store, config, clock), expireAsks(fx.store, config, clock)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await events(receipt.id, "receipt.decision_expired")).toEqual([
      { id: receipt.id, title: receipt.title, url: receipt.url, owner: receipt.owner, at: deadline },
    ]);
    expect(await expireAsks(fx.store, config, clock)).toBe(0);
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: receipt.id })).decision).toEqual({ state: "expired", at: deadline });
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_decide", sam.ctx(), { id: receipt.id, option: "approve" }))).code).toBe("expired");
  });

  it("exports the decision as its own signed line that verifies, after the receipt's", async () => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking(ASK, { tags: ["decided-export"] }));
    await fx.world.cairn.invoke("artifact_decide", sam.ctx(), { id: receipt.id, option: "reject", comment: "Not this week" });
    const lines: string[] = [];
    for await (const page of pagesOf(fx.world.cairn, "artifact_export", sam.ctx(), { tag: "decided-export", format: "in-toto" })) {
      lines.push(...page.items.map((i) => JSON.stringify(i as DsseEnvelope)));
    }
    expect(lines).toHaveLength(2);
    const statement = JSON.parse(Buffer.from(JSON.parse(lines[1] ?? "").payload, "base64").toString());
    expect(statement.predicateType).toBe("https://cairn.dev/decision/v1");
    expect(statement.subject).toEqual([{ name: `cairn:${receipt.id}`, digest: { sha256: receipt.checksum.slice(7) } }]);
    expect(statement.predicate.decision).toMatchObject({ state: "decided", option: "reject", comment: "Not this week" });
    const { keys } = await listPublicKeys(fx.store);
    for (const line of lines) expect(verifyLine(line, keys)).toMatchObject({ valid: true, failed: null });
    statement.predicate.decision.option = "approve";
    const envelope = JSON.parse(lines[1] ?? "");
    const tampered = JSON.stringify({ ...envelope, payload: Buffer.from(JSON.stringify(statement)).toString("base64") });
    expect(verifyLine(tampered, keys).failed).toBe("signature");
  });
});
