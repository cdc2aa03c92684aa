import { describe, expect, it } from "vitest";
import { faultOf } from "../drops/classification.js";
import { DRIVERS, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

describe("what was wrong with a field, read from the validator's issue", () => {
  it.each([
    [{ reason: "is required" }, "missing"],
    [{ reason: "is required when status is pending" }, "missing"],
    [{ reason: "must not be empty" }, "missing"],
    [{ reason: "must be at most 4000 characters", limit: 4000 }, "over_limit"],
    [{ reason: "is not a known field" }, "not_allowed"],
    [{ reason: "must be one of: measured, pending, not_applicable" }, "not_allowed"],
    [{ reason: "contains a character that cannot be stored" }, "not_allowed"],
    [{ reason: "must be an ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z)" }, "malformed"],
    [{ reason: "must be a string" }, "malformed"],
  ] as const)("%o → %s", (issue, fault) => {
    expect(faultOf(issue)).toBe(fault);
  });
});

describe.each(DRIVERS)("drop causes say which mistake it was on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("a missing measure_at and an impossible one leave drops with different causes and next actions, listed the same way", async () => {
    const sam = await fx.world.user("sam");
    const missing = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ outcome: { status: "pending" } })));
    const malformed = await rejectionOf(
      fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ outcome: { status: "pending", measure_at: "2026-02-30" } })),
    );
    expect(missing.drop?.fields).toEqual(["outcome.measure_at"]);
    expect(malformed.drop?.fields).toEqual(["outcome.measure_at"]);
    expect(missing.drop?.cause).toMatch(/missing/);
    expect(malformed.drop?.cause).toMatch(/expected form/);
    expect(missing.drop?.next_action).not.toBe(malformed.drop?.next_action);
    const listed = await fx.world.cairn.invoke("drops_list", sam.ctx(), {});
    const byId = new Map(listed.items.map((d) => [d.id, d]));
    expect(byId.get(missing.drop?.id ?? "")?.cause).toBe(missing.drop?.cause);
    expect(byId.get(malformed.drop?.id ?? "")?.next_action).toBe(malformed.drop?.next_action);
  });

  it("over a limit and an unknown field each say so", async () => {
    const sam = await fx.world.user("sam");
    const long = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ before: "x".repeat(4001) })));
    const typo = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learnt: "typo" })));
    expect(long.drop?.cause).toMatch(/over its limit/);
    expect(typo.drop?.cause).toMatch(/not allowed/);
    // Other categories keep their one wording.
    const thin = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ changed: "Fixed" })));
    expect(thin.drop?.cause).toMatch(/too short/);
  });
});
