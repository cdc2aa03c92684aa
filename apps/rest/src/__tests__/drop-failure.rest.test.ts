import { ADAPTER_DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

const clock = new Date("2026-11-03T08:00:00.000Z");
const DROP_ID = "drp_06gx0000000000000000000000";

describe.each(ADAPTER_DRIVERS)("a drop receipt that cannot be written, on %s", (driver) => {
  let h: RestHarness;
  beforeAll(async () => {
    // Pinned clock and drop id, so two refusals of the same body can be compared byte for byte.
    h = await openRestHarness(driver, { now: () => clock, newId: () => DROP_ID });
  });
  afterAll(async () => h?.close());

  it("leaves the caller's response byte-identical and logs the failure without values", async () => {
    const sam = await h.world.user("sam");
    const body = minimalReceipt({ before: `FAIL-MARKER-9e2${"b".repeat(4001)}` });
    const lines: string[] = [];
    const saved = console.error;
    await h.store.query("alter table drops rename to drops_gone");
    let failed: Awaited<ReturnType<RestHarness["call"]>>;
    try {
      console.error = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
      failed = await h.call("POST", "/v1/receipts", { token: sam.token, body, headers: { "x-request-id": "req-drop-failure-1" } });
    } finally {
      console.error = saved;
      await h.store.query("alter table drops_gone rename to drops");
    }
    const written = await h.call("POST", "/v1/receipts", { token: sam.token, body, headers: { "x-request-id": "req-drop-failure-1" } });
    expect(failed.status).toBe(written.status);
    expect(failed.text).toBe(written.text);
    expect(lines.join("\n")).toContain(`cairn error drop_write_failed drop=${DROP_ID}`);
    // The operator can match the line to the X-Request-Id the client saw.
    expect(failed.headers.get("x-request-id")).toBe("req-drop-failure-1");
    expect(lines.join("\n")).toContain("requestId=req-drop-failure-1");
    expect(lines.join("\n")).not.toContain("FAIL-MARKER-9e2");
    expect((await h.call("GET", "/v1/drops", { token: sam.token })).json.items.map((d: { id: string }) => d.id)).toEqual([DROP_ID]);
  });
});
