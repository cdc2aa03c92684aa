import { fullReceipt, minimalReceipt } from "@cairn/core/testing";
import type { Scenario } from "./types.js";

const long = (n: number) => "p".repeat(n);

/** The one table. A new scenario is one row. */
export const SCENARIOS: Scenario[] = [
  { name: "full receipt", step: { kind: "create", input: fullReceipt() } },
  { name: "minimal receipt", step: { kind: "create", input: minimalReceipt() } },
  { name: "missing required field", step: { kind: "create", input: minimalReceipt({ learned: undefined }) } },
  { name: "empty learned", step: { kind: "create", input: minimalReceipt({ learned: "   " }) } },
  { name: "text over its limit", step: { kind: "create", input: minimalReceipt({ before: long(4001) }) } },
  { name: "too many evidence links", step: { kind: "create", input: minimalReceipt({ evidence: Array.from({ length: 51 }, (_, i) => ({ label: `e${i}`, url: "https://e.example/" })) }) } },
  { name: "measured without summary", step: { kind: "create", input: minimalReceipt({ outcome: { status: "measured" } }) } },
  { name: "pending without date", step: { kind: "create", input: minimalReceipt({ outcome: { status: "pending" } }) } },
  { name: "unsafe evidence link", step: { kind: "create", input: minimalReceipt({ evidence: [{ label: "x", url: "javascript:alert(1)" }] }) } },
  { name: "too thin", step: { kind: "create", input: minimalReceipt({ changed: "Fixed" }) } },
  { name: "unknown field", step: { kind: "create", input: minimalReceipt({ learnt: "typo" }) } },
  { name: "unknown schema", step: { kind: "create", input: minimalReceipt({ schema: "cairn.receipt/v9" }) } },
  { name: "follows a missing receipt", step: { kind: "create", input: minimalReceipt({ follows: "art_00000000000000000000000000" }) } },
  { name: "duplicate", setup: [minimalReceipt({ learned: "said once" })], step: { kind: "create", input: minimalReceipt({ learned: "said once" }) } },
  { name: "read", setup: [fullReceipt({ learned: "to be read" })], step: { kind: "read", of: 0 } },
  {
    name: "search",
    setup: [minimalReceipt({ learned: "The parity flamingo is pink" }), minimalReceipt({ learned: "Unrelated" })],
    step: { kind: "search", q: "flamingo", tag: "receipt" },
  },
];
