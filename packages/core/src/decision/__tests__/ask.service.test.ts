import { describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { PLANTED } from "../../secrets/__tests__/planted.js";
import { DRIVERS, minimalReceipt } from "../../testing/index.js";

const OPTIONS = [
  { id: "approve", label: "Approve" },
  { id: "reject", label: "Reject" },
];
const asking = (ask: unknown, extra: Record<string, unknown> = {}) => ({ ...minimalReceipt(), human_action: "Approve the migration", ask, ...extra });

/** Each bad ask, and the fields its 422 names. */
const REFUSED: Array<[string, Record<string, unknown>, string[]]> = [
  ["one option", asking({ options: [OPTIONS[0]] }), ["ask.options"]],
  ["seven options", asking({ options: Array.from({ length: 7 }, (_, i) => ({ id: `o${i}`, label: `O${i}` })) }), ["ask.options"]],
  ["an id with a capital", asking({ options: [OPTIONS[0], { id: "Reject", label: "Reject" }] }), ["ask.options.1.id"]],
  ["an id starting with a digit", asking({ options: [{ id: "1st", label: "First" }, OPTIONS[1]] }), ["ask.options.0.id"]],
  ["an id of 33 characters", asking({ options: [OPTIONS[0], { id: `a${"b".repeat(32)}`, label: "Long" }] }), ["ask.options.1.id"]],
  ["repeated ids", asking({ options: [OPTIONS[0], { id: "approve", label: "Yes" }] }), ["ask.options.1.id"]],
  ["an empty label", asking({ options: [OPTIONS[0], { id: "reject", label: "   " }] }), ["ask.options.1.label"]],
  ["a label of 81 characters", asking({ options: [OPTIONS[0], { id: "reject", label: "x".repeat(81) }] }), ["ask.options.1.label"]],
  ["an unknown comment rule", asking({ options: OPTIONS, comment: "maybe" }), ["ask.comment"]],
  ["an answer_by that is neither", asking({ options: OPTIONS, answer_by: "tomorrow" }), ["ask.answer_by"]],
  ["an answer_by on no calendar day", asking({ options: OPTIONS, answer_by: "2027-02-30T10:00:00Z" }), ["ask.answer_by"]],
  ["an answer_by already past", asking({ options: OPTIONS, answer_by: "2020-01-01T00:00:00Z" }), ["ask.answer_by"]],
  ["an unknown field", asking({ options: OPTIONS, question: "Go?" }), ["ask.question"]],
  ["no human_action", { ...minimalReceipt(), ask: { options: OPTIONS } }, ["human_action"]],
  ["human_action Nothing", asking({ options: OPTIONS }, { human_action: "Nothing" }), ["human_action"]],
];

describe.each(DRIVERS)("asks on %s", (driver) => {
  const fx = useTestWorld(driver);

  it.each(REFUSED)("refuses %s with a 422 naming the field, and a drop", async (_name, receipt, fields) => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), receipt));
    expect(err.code).toBe("validation_failed");
    expect(err.issues?.map((i) => i.field)).toEqual(fields);
    expect(err.drop?.fields).toEqual(fields);
    const drops = await fx.world.cairn.invoke("drops_list", sam.ctx(), {});
    expect(drops.items.map((d) => d.id)).toContain(err.drop?.id);
  });

  it("stores the ask beside the body: options, the comment rule's default, answer_by as an instant, no decision", async () => {
    const sam = await fx.world.user("sam");
    const plain = await fx.world.cairn.invoke("receipt_create", sam.ctx(), { ...minimalReceipt(), human_action: "Approve the migration" });
    const created = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      asking({ options: OPTIONS, answer_by: "48h" }, { changed: "A different change to approve" }),
    );
    expect(created.ask).toEqual({ options: OPTIONS, comment: "optional", answer_by: new Date(Date.parse(created.created_at) + 48 * 3_600_000).toISOString() });
    expect(created.decision).toBeNull();
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: created.id });
    expect(read.ask).toEqual(created.ask);
    expect(read.decision).toBeNull();
    // Not part of the body: no label reaches it.
    expect(created.body).not.toContain("Reject");
    expect(plain.ask).toBeNull();
  });

  it("keeps an instant answer_by and a comment rule as given", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      asking({ options: OPTIONS, comment: "required", answer_by: "2030-01-02T03:04:05+01:00" }),
    );
    expect(created.ask).toEqual({ options: OPTIONS, comment: "required", answer_by: "2030-01-02T02:04:05.000Z" });
  });

  it("scans the labels for secrets like a field: redacted under the default policy", async () => {
    const sam = await fx.world.user("sam");
    const secret = PLANTED.ghp;
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking({ options: [OPTIONS[0], { id: "reject", label: `Use ${secret}` }] }));
    expect(JSON.stringify(created.ask)).not.toContain(secret);
    expect(created.redactions).toContainEqual({ field: "ask.options.1.label", rule: expect.any(String) });
  });
});
