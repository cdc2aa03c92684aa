import { describe, expect, it } from "vitest";
import { resolveInstant, TYPED_INSTANT_REASON } from "../dates.js";
import { DRIVERS, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const NOW = new Date("2026-12-07T15:30:00.000Z");

describe("dates people type, resolved in UTC at an injected now", () => {
  it.each([
    ["2d", "2026-12-05T15:30:00.000Z"],
    ["36h", "2026-12-06T03:30:00.000Z"],
    ["0h", "2026-12-07T15:30:00.000Z"],
    ["today", "2026-12-07T00:00:00.000Z"],
    ["Yesterday", "2026-12-06T00:00:00.000Z"],
    [" 2D ", "2026-12-05T15:30:00.000Z"],
    ["999999d", "1970-01-01T00:00:00.000Z"],
    ["2026-12-01", "2026-12-01T00:00:00.000Z"],
    ["2026-12-01T09:00:00+01:00", "2026-12-01T08:00:00.000Z"],
  ])("%s → %s", (typed, iso) => {
    expect(resolveInstant(typed, NOW).toISOString()).toBe(iso);
  });
});

describe.each(DRIVERS)("typed dates in list filters on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("created_after and created_before take 2d, 36h, today and yesterday on search; since and before on runs", async () => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "dated" }));
    const run = await fx.world.cairn.invoke("run_create", sam.ctx(), { name: "dated-run" });
    const at = (days: number) => ({ ...sam.ctx(), now: () => new Date(Date.now() + days * 86_400_000) });
    const found = async (days: number, filter: Record<string, string>) =>
      (await fx.world.cairn.invoke("artifact_search", at(days), { ...filter, limit: 200 })).items.some((a) => a.id === receipt.id);
    const runs = async (days: number, filter: Record<string, string>) =>
      (await fx.world.cairn.invoke("run_list", at(days), { ...filter, limit: 200 })).items.some((r) => r.id === run.id);

    expect(await found(0, { created_after: "today" })).toBe(true);
    expect(await found(0, { created_after: "1h" })).toBe(true);
    expect(await found(3, { created_after: "2d" })).toBe(false);
    expect(await found(3, { created_after: "96h" })).toBe(true);
    expect(await found(3, { created_after: "today" })).toBe(false);
    expect(await found(3, { created_before: "yesterday" })).toBe(true);
    expect(await found(0, { created_before: "yesterday" })).toBe(false);
    expect(await runs(0, { since: "36h" })).toBe(true);
    expect(await runs(3, { since: "2d" })).toBe(false);
    expect(await runs(3, { before: "today" })).toBe(true);
    expect(await runs(0, { before: "yesterday" })).toBe(false);
  });

  it("anything else is a 422 naming the field and saying what is accepted", async () => {
    const sam = await fx.world.user("sam");
    for (const [op, field, value] of [
      ["artifact_search", "created_after", "2 days"],
      ["artifact_search", "created_before", "last week"],
      ["artifact_search", "measure_before", "-2d"],
      ["run_list", "since", "2w"],
      ["run_list", "before", "1234567d"],
    ] as const) {
      const err = await rejectionOf(fx.world.cairn.invoke(op, sam.ctx(), { [field]: value }));
      expect(err.code, value).toBe("validation_failed");
      expect(err.issues, value).toEqual([{ field, reason: TYPED_INSTANT_REASON }]);
    }
  });
});
