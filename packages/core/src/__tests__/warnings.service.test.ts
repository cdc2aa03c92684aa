import { describe, expect, it } from "vitest";
import { DRIVERS, fullReceipt } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

describe.each(DRIVERS)("warnings on accepted receipts on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("a pending measure_at already past is stored, with a warning naming the field", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ outcome: { status: "pending", measure_at: "2020-01-01" } }));
    expect(created.warnings).toEqual([{ field: "outcome.measure_at", reason: expect.stringContaining("already past") }]);
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: created.id });
    expect((read.metadata as unknown as { outcome: { measure_at: string } }).outcome.measure_at).toBe("2020-01-01");
  });

  it("no evidence is a warning; a future measure_at before the expiry, with evidence, has none", async () => {
    const sam = await fx.world.user("sam");
    // Inside the default 7-day life: a later one moves the expiry and says so (SPEC §20).
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const bare = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ evidence: [], outcome: { status: "pending", measure_at: soon } }));
    expect(bare.warnings.map((w) => w.field)).toEqual(["evidence"]);
    const fine = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      fullReceipt({ learned: "the second one", outcome: { status: "pending", measure_at: soon } }),
    );
    expect(fine.warnings).toEqual([]);
  });

  it("a date-only measure_at is due from the start of that day (UTC)", async () => {
    const sam = await fx.world.user("sam");
    const today = new Date().toISOString().slice(0, 10);
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ outcome: { status: "pending", measure_at: today } }));
    expect(created.warnings.map((w) => w.field)).toEqual(["outcome.measure_at"]);
  });
});
