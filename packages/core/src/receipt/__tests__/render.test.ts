import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fullReceipt, minimalReceipt } from "../../testing/receipts.js";
import { prepareReceipt } from "../prepare.js";

const golden = (name: string) => join(import.meta.dirname, "__golden__", name);

function bodyOf(input: Record<string, unknown>) {
  const prepared = prepareReceipt(input);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.rejection));
  return prepared.value;
}

/** Golden files hold exact bytes. Regenerate only with a new schema version: UPDATE_GOLDEN=1. */
function expectGolden(name: string, actual: string) {
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden(name), actual);
  expect(actual).toBe(readFileSync(golden(name), "utf8"));
}

function shuffleKeys(value: unknown, order: number[]): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, order));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  const keyed = entries.map((e, i) => ({ e, k: order[i % order.length] ?? i }));
  keyed.sort((a, b) => a.k - b.k);
  return Object.fromEntries(keyed.map(({ e: [k, v] }) => [k, shuffleKeys(v, order)]));
}

describe("renderReceiptV1", () => {
  it("renders the full receipt to the golden bytes", () => {
    const prepared = bodyOf(fullReceipt());
    expectGolden("full.md", prepared.body);
    expectGolden("full.checksum", `${prepared.checksum}\n`);
  });

  it("renders the minimal receipt to the golden bytes", () => {
    expectGolden("minimal.md", bodyOf(minimalReceipt()).body);
  });

  it("puts details under a Details heading, last", () => {
    const body = bodyOf(minimalReceipt({ details: "Line one\n\nLine two" })).body;
    expect(body.endsWith("## Details\n\nLine one\n\nLine two\n")).toBe(true);
  });

  it("never writes the followed receipt's id into the body, which every link holder can read", () => {
    const body = bodyOf(minimalReceipt({ follows: "art_06h2jeqn58n673q9dnm2fan51g" })).body;
    expect(body).not.toContain("art_06h2jeqn58n673q9dnm2fan51g");
    expect(body).toBe(bodyOf(minimalReceipt()).body);
  });

  it("keeps a hostile evidence label and url inside the link", () => {
    const body = bodyOf(minimalReceipt({ evidence: [{ label: "a](https://evil.x) [b", url: "https://ok.x/a b>c" }] })).body;
    expect(body).toContain("- [a\\](https://evil.x) \\[b](<https://ok.x/a%20b%3Ec>)");
  });

  it("gives the same bytes whatever the input key order", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(100), { minLength: 1, maxLength: 20 }), fc.boolean(), (order, full) => {
        const input = full ? fullReceipt() : minimalReceipt();
        const a = bodyOf(input);
        const b = bodyOf(shuffleKeys(input, order) as Record<string, unknown>);
        expect(b.body).toBe(a.body);
        expect(b.checksum).toBe(a.checksum);
        expect(JSON.stringify(b.metadata)).toBe(JSON.stringify(a.metadata));
      }),
      { numRuns: 200 },
    );
  });

  it("gives the same bytes for CRLF and NFD input", () => {
    const a = bodyOf(minimalReceipt({ before: "Café\nline" }));
    const b = bodyOf(minimalReceipt({ before: "Cafe\u0301\r\nline" }));
    expect(b.checksum).toBe(a.checksum);
  });

  it("checksum is sha256 of the UTF-8 body", async () => {
    const { createHash } = await import("node:crypto");
    const p = bodyOf(fullReceipt({ learned: "naïve — ünïcode ✓" }));
    expect(p.checksum).toBe(`sha256:${createHash("sha256").update(Buffer.from(p.body, "utf8")).digest("hex")}`);
  });
});
