import { describe, expect, it } from "vitest";
import { receiptExample } from "../receipt/example.js";
import { receiptTemplateValues } from "../receipt/template.js";
import { validateReceiptInput } from "../receipt/validate.js";
import { DRIVERS } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const PLACEHOLDERS = [
  "changed",
  "affected",
  "before",
  "after",
  "evidence.0.label",
  "evidence.0.url",
  "human_action",
  "remaining.0.item",
  "remaining.0.owner",
  "learned",
];

describe("the unedited template is not a receipt (SPEC §24)", () => {
  it("names each field still holding a placeholder; a field filled in is no longer named; the documented example stays valid", () => {
    const template = receiptTemplateValues(new Date("2026-12-01T00:00:00Z"));
    const refused = validateReceiptInput(template);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.rejection.category).toBe("invalid");
    expect(refused.rejection.issues.map((i) => i.field).sort()).toEqual([...PLACEHOLDERS].sort());
    const partly = validateReceiptInput({ ...template, changed: "Rotated the key", learned: "The key had no owner" });
    expect(partly.ok ? [] : partly.rejection.issues.map((i) => i.field)).not.toContain("changed");
    // Text that only mentions a placeholder is somebody's answer.
    expect(validateReceiptInput({ ...receiptExample(), learned: 'The template says <fill in: …> where "learned" goes.' }).ok).toBe(true);
    expect(validateReceiptInput(receiptExample()).ok).toBe(true);
  });
});

describe.each(DRIVERS)("the template refused on every surface, with a drop, on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("receipt_create answers invalid naming the placeholders and leaves a drop naming them too", async () => {
    const sam = await fx.world.user("sam");
    for (const surface of ["rest", "mcp"] as const) {
      const err = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(surface), receiptTemplateValues()));
      expect(err.code).toBe("validation_failed");
      expect(err.issues?.map((i) => i.field).sort()).toEqual([...PLACEHOLDERS].sort());
      expect(err.drop?.category).toBe("invalid");
      expect([...(err.drop?.fields ?? [])].sort()).toEqual([...PLACEHOLDERS].sort());
    }
    expect((await fx.world.cairn.invoke("artifact_search", sam.ctx(), { tag: "receipt" })).items).toEqual([]);
  });
});
