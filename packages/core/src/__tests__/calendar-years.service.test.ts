import { describe, expect, it } from "vitest";
import { DRIVERS, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const OUTSIDE = ["0000-01-01", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-12:00", "+010000-01-01"] as const;
const REASON = "must fall between 0001-01-01 and 9999-12-31 once converted to UTC";

describe.each(DRIVERS)("dates outside years 0001-9999 in UTC on %s", (driver) => {
  const fx = useTestWorld(driver);

  it.each(OUTSIDE.slice(0, 3))("measure_at %s is refused naming the field, with a drop", async (measureAt) => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(
      fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ outcome: { status: "pending", measure_at: measureAt } })),
    );
    expect(err.code).toBe("validation_failed");
    expect(err.issues).toEqual([{ field: "outcome.measure_at", reason: REASON }]);
    expect(err.drop).toMatchObject({ category: "invalid", fields: ["outcome.measure_at"] });
  });

  it("the first and last instants of the range are stored", async () => {
    const sam = await fx.world.user("sam");
    for (const measure_at of [
      "0001-01-01",
      "0001-01-01T01:00:00+01:00",
      "9999-12-31T23:59:59Z",
      "9999-12-31T10:00:00-12:00",
      "9999-12-31T23:59:59.999Z",
      "9999-12-31T23:59:59.9999994Z",
    ]) {
      const created = await fx.world.cairn.invoke(
        "receipt_create",
        sam.ctx(),
        minimalReceipt({ learned: measure_at, outcome: { status: "pending", measure_at } }),
      );
      expect(created.metadata?.outcome).toMatchObject({ measure_at });
    }
  });

  it("a fraction the database rounds into year 10000 answers 422, not 500", async () => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(
      fx.world.cairn.invoke(
        "receipt_create",
        sam.ctx(),
        minimalReceipt({ learned: "rounds up", outcome: { status: "pending", measure_at: "9999-12-31T23:59:59.9999995Z" } }),
      ),
    );
    expect(err.issues).toEqual([{ field: "outcome.measure_at", reason: REASON }]);
  });

  it.each(["measure_before", "created_after", "created_before"])("the search filter %s answers 422 for year 0, not 500", async (filter) => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("artifact_search", sam.ctx(), { [filter]: "0001-01-01T00:00:00+01:00" }));
    expect(err.code).toBe("validation_failed");
    expect(err.issues).toEqual([{ field: filter, reason: REASON }]);
  });

  it("a subscription's recover since answers 422 for year 10000 in UTC", async () => {
    const sam = await fx.world.user("sam");
    const sub = await fx.world.cairn.invoke("subscription_create", sam.ctx(), { url: "http://127.0.0.1:9/hook" });
    const err = await rejectionOf(fx.world.cairn.invoke("subscription_recover", sam.ctx(), { id: sub.id, since: "9999-12-31T23:59:59-12:00" }));
    expect(err.issues).toEqual([{ field: "since", reason: REASON }]);
  });
});
