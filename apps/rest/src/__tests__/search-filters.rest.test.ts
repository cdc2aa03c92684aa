import { minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

// Adapter tests run on one store; the filters themselves are tested on both in core.
describe("GET /v1/artifacts filters", () => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await openRestHarness("pglite");
  });
  afterAll(async () => h?.close());

  it("passes every filter from the query string and leaves bodies out under fields=summary", async () => {
    const sam = await h.world.user("sam");
    const needs = await h.call("POST", "/v1/receipts", {
      token: sam.token,
      body: minimalReceipt({ learned: "restfilterword one", human_action: "Approve it", expires_in: 3600 }),
    });
    expect(needs.status).toBe(201);
    expect(new Date(needs.json.expires_at).getTime() - new Date(needs.json.created_at).getTime()).toBe(3_600_000);
    await h.call("POST", "/v1/receipts", { token: sam.token, body: minimalReceipt({ learned: "restfilterword two" }) });
    const page = await h.call(
      "GET",
      "/v1/artifacts?q=restfilterword&human_action=needed&schema=cairn.receipt/v1&outcome=not_applicable&created_after=2020-01-01&fields=summary&limit=5",
      {
        token: sam.token,
      },
    );
    expect(page.status).toBe(200);
    expect(page.json.items.map((i: { id: string }) => i.id)).toEqual([needs.json.id]);
    expect(page.json.items[0]).not.toHaveProperty("body");
  });

  it("answers 422 naming the parameter for an invalid filter value", async () => {
    const sam = await h.world.user("sam");
    for (const [field, value] of [
      ["outcome", "late"],
      ["human_action", "maybe"],
      ["created_before", "2026-02-30"],
      ["owner", "nobody"],
    ]) {
      const res = await h.call("GET", `/v1/artifacts?${field}=${value}`, { token: sam.token });
      expect(res.status, field).toBe(422);
      expect(res.json.error.code).toBe("validation_failed");
      expect(res.json.error.issues.map((i: { field: string }) => i.field)).toEqual([field]);
    }
  });
});
