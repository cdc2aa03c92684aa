import { ADAPTER_DRIVERS, fullReceipt, minimalReceipt } from "@cairn/core/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRestHarness, type RestHarness } from "./harness.js";

const long = (n: number) => "y".repeat(n);

// Each SPEC §5 rule broken once through REST: 422 naming the field, with the limit where one applies.
const BROKEN: Array<[string, Record<string, unknown>, string, number?]> = [
  ["missing changed", minimalReceipt({ changed: undefined }), "changed"],
  ["empty learned", minimalReceipt({ learned: "  " }), "learned"],
  ["text over limit", minimalReceipt({ after: long(4001) }), "after", 4000],
  ["title over limit", minimalReceipt({ title: long(201) }), "title", 200],
  ["details over limit", minimalReceipt({ details: long(100_001) }), "details", 100_000],
  ["too many remaining", minimalReceipt({ remaining: Array.from({ length: 51 }, () => ({ item: "i", owner: "o" })) }), "remaining", 50],
  ["bad status", minimalReceipt({ outcome: { status: "finished" } }), "outcome.status"],
  ["measured without summary", minimalReceipt({ outcome: { status: "measured" } }), "outcome.summary"],
  ["pending without date", minimalReceipt({ outcome: { status: "pending" } }), "outcome.measure_at"],
  [
    "bad evidence scheme",
    minimalReceipt({
      evidence: [
        { label: "a", url: "https://a.x" },
        { label: "b", url: "https://b.x" },
        { label: "c", url: "file:///etc/passwd" },
      ],
    }),
    "evidence.2.url",
  ],
  ["evidence missing", minimalReceipt({ evidence: undefined }), "evidence"],
  ["follows unknown", minimalReceipt({ follows: "art_00000000000000000000000000" }), "follows"],
];

describe.each(ADAPTER_DRIVERS)("REST receipts (errors) on %s", (driver) => {
  let h: RestHarness;
  let token: string;
  beforeAll(async () => {
    h = await openRestHarness(driver);
    token = (await h.world.user("sam")).token;
  });
  afterAll(async () => h?.close());

  it.each(BROKEN)("%s → 422 naming %s", async (_rule, body, field, limit) => {
    const res = await h.call("POST", "/v1/receipts", { token, body });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("validation_failed");
    const issue = res.json.error.issues.find((i: { field: string }) => i.field === field);
    expect(issue, JSON.stringify(res.json)).toBeDefined();
    if (limit !== undefined) expect(issue.limit).toBe(limit);
    expect(res.json.error.drop.fields).toContain(field);
  });

  it("unknown schema → 422 unknown_schema", async () => {
    const res = await h.call("POST", "/v1/receipts", { token, body: minimalReceipt({ schema: "acme.receipt/v1" }) });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("unknown_schema");
    expect(res.json.error.drop.category).toBe("unknown-schema");
  });

  it("duplicate → 409 with existing id and url", async () => {
    const first = await h.call("POST", "/v1/receipts", { token, body: fullReceipt({ learned: "dup" }) });
    const again = await h.call("POST", "/v1/receipts", { token, body: fullReceipt({ learned: "dup" }) });
    expect(again.status).toBe(409);
    expect(again.json.error.existing).toEqual({ id: first.json.id, url: first.json.url });
  });

  it("malformed JSON, empty body and non-object bodies → 422, never 5xx", async () => {
    for (const rawBody of ["{", "", "null", "[]", '"text"', "42", '{"changed":', "\u0000"]) {
      const res = await h.call("POST", "/v1/receipts", { token, rawBody });
      expect(res.status, rawBody).toBe(422);
      expect(res.json.error.code).toBe("validation_failed");
    }
  });

  it("a body over the request limit → 413 with the limit", async () => {
    const res = await h.call("POST", "/v1/receipts", { token, rawBody: JSON.stringify({ details: "z".repeat(3 * 1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.json.error.issues[0].limit).toBe(2 * 1024 * 1024);
  });

  it("500 random malformed bodies → no 5xx", async () => {
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const mutatedReceipt = fc
      .record({ key: fc.constantFrom(...Object.keys(fullReceipt()), "outcome.status", "evidence.0.url", "x"), value: anyJson })
      .map(({ key, value }) => {
        const r: Record<string, any> = fullReceipt({ learned: `fuzz ${Math.random()}` });
        if (key === "outcome.status") r.outcome = { ...r.outcome, status: value };
        else if (key === "evidence.0.url") r.evidence = [{ label: "l", url: value }];
        else r[key] = value;
        return JSON.stringify(r);
      });
    const junk = fc.oneof(
      fc.string({ maxLength: 200 }),
      anyJson.map((v) => JSON.stringify(v)),
      mutatedReceipt,
    );
    const bodies = fc.sample(junk, { numRuns: 500, seed: 7373 });
    const statuses = new Map<number, number>();
    for (const rawBody of bodies) {
      const res = await h.call("POST", "/v1/receipts", { token, rawBody });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, rawBody).toBeLessThan(500);
      expect(res.json?.error?.code ?? res.json?.id, rawBody).toBeDefined();
    }
    expect([...statuses.keys()].every((s) => [201, 409, 422].includes(s))).toBe(true);
  });
});
