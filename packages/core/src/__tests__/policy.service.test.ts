import { describe, expect, it } from "vitest";
import { PLANTED } from "../secrets/__tests__/planted.js";
import { DRIVERS, fullReceipt, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const DAY = 86_400_000;

describe.each(DRIVERS)("policies and redaction on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("a token in `before` is stored redacted everywhere and listed in redactions", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ before: `The deploy used ${PLANTED.ghp} directly.` }));
    expect(created.redactions).toEqual([{ field: "before", rule: "github" }]);
    expect(created.metadata?.before).toBe("The deploy used [REDACTED:github] directly.");
    expect(created.body).toContain("The deploy used [REDACTED:github] directly.");
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: created.id });
    const [row] = await fx.store.query<Record<string, unknown>>("select title, body, metadata::text, search::text from artifacts where id = $1", [created.id]);
    for (const text of [JSON.stringify(created), JSON.stringify(read), JSON.stringify(row)]) expect(text).not.toContain(PLANTED.ghp);
    const found = await fx.world.cairn.invoke("artifact_search", sam.ctx(), { q: PLANTED.ghp });
    expect(found.items).toEqual([]);
    // Control: the same query does find the token where it is indexed (written past the scanner, straight into the row).
    const control = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "raw", body: "used nothing" });
    await fx.store.query("update artifacts set body = $1, search = to_tsvector('english', $1) where id = $2", [`used ${PLANTED.ghp}`, control.id]);
    const again = await fx.world.cairn.invoke("artifact_search", sam.ctx(), { q: PLANTED.ghp });
    expect(again.items.map((a) => a.id)).toEqual([control.id]);
    const byWord = await fx.world.cairn.invoke("artifact_search", sam.ctx(), { q: "deploy", tag: "receipt" });
    expect(byWord.items.map((a) => a.id)).toEqual([created.id]);
  });

  it("starts from the defaults, and PUT of a subset keeps the other fields", async () => {
    const sam = await fx.world.user("sam");
    const owner = `user:${sam.name}`;
    expect(await fx.world.cairn.invoke("policy_get", sam.ctx(), {})).toEqual({
      owner,
      secrets: "redact",
      entropy_detection: false,
      require_evidence: false,
      default_ttl_days: 7,
    });
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { require_evidence: true });
    const after = await fx.world.cairn.invoke("policy_set", sam.ctx(), { default_ttl_days: 30 });
    expect(after).toEqual({ owner, secrets: "redact", entropy_detection: false, require_evidence: true, default_ttl_days: 30 });
    expect(await fx.world.cairn.invoke("policy_get", sam.ctx(), { owner })).toEqual(after);
  });

  it("default_ttl_days sets the expiry of new receipts and artifacts", async () => {
    const sam = await fx.world.user("sam");
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { default_ttl_days: 30 });
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const plain = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "log", body: "ok" });
    for (const a of [receipt, plain]) expect(Date.parse(a.expires_at ?? "") - Date.parse(a.created_at)).toBe(30 * DAY);
  });

  it("team policies are read and set by members only; other users' policies not at all", async () => {
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const eve = await fx.world.user("eve");
    const team = await fx.world.team([sam, kim]);
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { owner: team, secrets: "block" });
    expect((await fx.world.cairn.invoke("policy_get", kim.ctx(), { owner: team })).secrets).toBe("block");
    const outsider = await rejectionOf(fx.world.cairn.invoke("policy_set", eve.ctx(), { owner: team, secrets: "redact" }));
    expect(outsider.code).toBe("forbidden");
    expect(outsider.issues).toEqual([{ field: "owner", reason: `you are not a member of ${team}` }]);
    const peek = await rejectionOf(fx.world.cairn.invoke("policy_get", eve.ctx(), { owner: `user:${sam.name}` }));
    expect(peek.code).toBe("forbidden");
    // The team's block applies to receipts for the team, not to the members' own.
    const blocked = await rejectionOf(fx.world.cairn.invoke("receipt_create", kim.ctx(), minimalReceipt({ owner: team, before: PLANTED.npm })));
    expect(blocked.drop).toMatchObject({ category: "secret-detected", owner: team, fields: ["before"] });
    const own = await fx.world.cairn.invoke("receipt_create", kim.ctx(), minimalReceipt({ before: PLANTED.npm }));
    expect(own.redactions).toEqual([{ field: "before", rule: "npm" }]);
  });

  it("refuses bad policy values naming the field and the limit", async () => {
    const sam = await fx.world.user("sam");
    const ttl = await rejectionOf(fx.world.cairn.invoke("policy_set", sam.ctx(), { default_ttl_days: 0 }));
    expect(ttl.code).toBe("validation_failed");
    expect(ttl.issues).toEqual([{ field: "default_ttl_days", reason: "must be at least 1", limit: 1 }]);
    const mode = await rejectionOf(fx.world.cairn.invoke("policy_set", sam.ctx(), { secrets: "ignore", extra: true }));
    expect(mode.issues?.map((i) => i.field).sort()).toEqual(["extra", "secrets"]);
  });

  it("under require_evidence, a receipt with evidence passes and one without is vetoed", async () => {
    const sam = await fx.world.user("sam");
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { require_evidence: true });
    await expect(fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt())).resolves.toMatchObject({ redactions: [] });
    const vetoed = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt()));
    expect(vetoed.drop?.category).toBe("policy-vetoed");
    expect(vetoed.issues?.[0]?.field).toBe("evidence");
  });
});
