import { describe, expect, it } from "vitest";
import { fullReceipt, minimalReceipt } from "../../testing/receipts.js";
import { validateReceiptInput } from "../validate.js";

type Case = { rule: string; input: Record<string, unknown>; category: string; field: string; limit?: number };

const long = (n: number) => "x".repeat(n);
const without = (key: string) => {
  const r = minimalReceipt();
  delete r[key];
  return r;
};

// Each SPEC §5 rule broken once: the rejection names the field (and the limit where one applies).
const CASES: Case[] = [
  { rule: "changed required", input: without("changed"), category: "invalid", field: "changed" },
  { rule: "affected required", input: without("affected"), category: "invalid", field: "affected" },
  { rule: "before required", input: without("before"), category: "invalid", field: "before" },
  { rule: "after required", input: without("after"), category: "invalid", field: "after" },
  { rule: "evidence required", input: without("evidence"), category: "invalid", field: "evidence" },
  { rule: "outcome required", input: without("outcome"), category: "invalid", field: "outcome" },
  { rule: "remaining required", input: without("remaining"), category: "invalid", field: "remaining" },
  { rule: "learned required", input: without("learned"), category: "invalid", field: "learned" },
  { rule: "learned non-empty after trim", input: minimalReceipt({ learned: "   " }), category: "invalid", field: "learned" },
  { rule: "affected trimmed to empty", input: minimalReceipt({ affected: "\n\t " }), category: "invalid", field: "affected" },
  { rule: "text limit", input: minimalReceipt({ before: long(4001) }), category: "invalid", field: "before", limit: 4000 },
  { rule: "title limit", input: minimalReceipt({ title: long(201) }), category: "invalid", field: "title", limit: 200 },
  { rule: "details limit", input: minimalReceipt({ details: long(100_001) }), category: "invalid", field: "details", limit: 100_000 },
  {
    rule: "evidence list limit",
    input: minimalReceipt({ evidence: Array.from({ length: 51 }, (_, i) => ({ label: `l${i}`, url: "https://e.x/" })) }),
    category: "invalid",
    field: "evidence",
    limit: 50,
  },
  {
    rule: "remaining list limit",
    input: minimalReceipt({ remaining: Array.from({ length: 51 }, () => ({ item: "a", owner: "b" })) }),
    category: "invalid",
    field: "remaining",
    limit: 50,
  },
  { rule: "outcome status enum", input: minimalReceipt({ outcome: { status: "done" } }), category: "invalid", field: "outcome.status" },
  { rule: "measured needs summary", input: minimalReceipt({ outcome: { status: "measured" } }), category: "invalid", field: "outcome.summary" },
  { rule: "pending needs measure_at", input: minimalReceipt({ outcome: { status: "pending" } }), category: "invalid", field: "outcome.measure_at" },
  {
    rule: "measure_at is ISO 8601",
    input: minimalReceipt({ outcome: { status: "pending", measure_at: "next tuesday" } }),
    category: "invalid",
    field: "outcome.measure_at",
  },
  {
    rule: "evidence label required",
    input: minimalReceipt({ evidence: [{ url: "https://e.x/" }] }),
    category: "invalid",
    field: "evidence.0.label",
  },
  {
    rule: "evidence url scheme",
    input: minimalReceipt({
      evidence: [
        { label: "a", url: "https://ok.x/" },
        { label: "b", url: "https://ok.y/" },
        { label: "c", url: "javascript:alert(1)" },
      ],
    }),
    category: "unsafe-link",
    field: "evidence.2.url",
  },
  { rule: "evidence url parses", input: minimalReceipt({ evidence: [{ label: "a", url: "not a url" }] }), category: "invalid", field: "evidence.0.url" },
  { rule: "remaining owner required", input: minimalReceipt({ remaining: [{ item: "x" }] }), category: "invalid", field: "remaining.0.owner" },
  { rule: "unknown field", input: minimalReceipt({ learnt: "typo" }), category: "invalid", field: "learnt" },
  { rule: "tag charset", input: minimalReceipt({ tags: ["has space"] }), category: "invalid", field: "tags.0" },
  { rule: "tag count", input: minimalReceipt({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), category: "invalid", field: "tags", limit: 20 },
  { rule: "owner format", input: minimalReceipt({ owner: "sam" }), category: "invalid", field: "owner" },
  { rule: "unknown schema", input: minimalReceipt({ schema: "cairn.receipt/v9" }), category: "unknown-schema", field: "schema" },
  { rule: "changed too thin", input: minimalReceipt({ changed: "Fixed it" }), category: "too-thin", field: "changed", limit: 3 },
  { rule: "wrong type", input: minimalReceipt({ evidence: "none" }), category: "invalid", field: "evidence" },
];

describe("validateReceiptInput", () => {
  it.each(CASES)("$rule → $category on $field", ({ input, category, field, limit }) => {
    const result = validateReceiptInput(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejection.category).toBe(category);
    const issue = result.rejection.issues.find((i) => i.field === field);
    expect(issue, JSON.stringify(result.rejection.issues)).toBeDefined();
    expect(issue?.reason.length).toBeGreaterThan(3);
    if (limit !== undefined) expect(issue?.limit).toBe(limit);
  });

  it("accepts the full and the minimal receipt", () => {
    expect(validateReceiptInput(fullReceipt()).ok).toBe(true);
    expect(validateReceiptInput(minimalReceipt()).ok).toBe(true);
  });

  it("reports every problem in one pass and never echoes submitted values", () => {
    const marker = "MARKER-7f3a";
    const result = validateReceiptInput(
      minimalReceipt({ before: `${marker}${long(4001)}`, evidence: [{ label: marker, url: `ftp://${marker}` }], learned: "" }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejection.issues.map((i) => i.field).sort()).toEqual(["before", "evidence.0.url", "learned"]);
    expect(JSON.stringify(result.rejection)).not.toContain(marker);
  });

  it("defaults human_action to Nothing, trims text, adds the receipt tag and derives the title", () => {
    const result = validateReceiptInput(minimalReceipt({ changed: "  Rotated the staging password\r\nsecond line ", tags: ["Ops", "ops"] }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.metadata.human_action).toBe("Nothing");
    expect(result.value.metadata.changed).toBe("Rotated the staging password\nsecond line");
    expect(result.value.title).toBe("Rotated the staging password");
    expect(result.value.tags).toEqual(["ops", "receipt"]);
  });

  it("cuts a derived title to 120 characters", () => {
    const result = validateReceiptInput(minimalReceipt({ changed: `Changed ${"word ".repeat(60)}` }));
    expect(result.ok && result.value.title.length).toBe(120);
  });

  it("accepts mcp://cairn/ evidence and ISO date-times", () => {
    const result = validateReceiptInput(
      minimalReceipt({
        evidence: [{ label: "trace", url: "mcp://cairn/artifacts/art_01jd8x3q5v7w9y2b4c6d8f0g1h" }],
        outcome: { status: "pending", measure_at: "2026-12-01T09:00:00Z" },
      }),
    );
    expect(result.ok).toBe(true);
  });

  it("accepts only artifact and run resources under mcp://cairn/, as invalid rather than unsafe", () => {
    const accepted = validateReceiptInput(minimalReceipt({ evidence: [{ label: "trace", url: "mcp://cairn/runs/run_01jd8x3q5v7w9y2b4c6d8f0g1h" }] }));
    expect(accepted.ok).toBe(true);
    const urls = [
      "mcp://cairn/artifacts/art_1",
      "mcp://cairn/runs/run_1",
      "mcp://cairn/runs/run_01jd8x3q5v7w9y2b4c6d8f0g1h/spans",
      "mcp://cairn/traces/4bf92f3577b34da6a3ce929d0e0e4736",
      "mcp://cairn/artifacts/art_01jd8x3q5v7w9y2b4c6d8f0g1h/extra",
      "mcp://cairn/artifacts/art_01jd8x3q5v7w9y2b4c6d8f0g1h?x=1",
      "mcp://cairn/",
    ];
    const result = validateReceiptInput(minimalReceipt({ evidence: urls.map((url) => ({ label: "x", url })) }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejection.category).toBe("invalid");
    expect(result.rejection.issues).toEqual(
      urls.map((_, i) => ({ field: `evidence.${i}.url`, reason: "must name an artifact or a run: mcp://cairn/artifacts/<id> or mcp://cairn/runs/<run id>" })),
    );
    const other = validateReceiptInput(minimalReceipt({ evidence: [{ label: "x", url: "mcp://elsewhere/artifacts/a" }] }));
    expect(!other.ok && other.rejection.category).toBe("unsafe-link");
  });

  it("rejects non-object input as invalid", () => {
    for (const input of [null, [], "text", 42]) {
      const result = validateReceiptInput(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.rejection.category).toBe("invalid");
    }
  });
});
