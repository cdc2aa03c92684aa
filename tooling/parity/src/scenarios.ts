import { fullReceipt, minimalReceipt } from "@cairn/core/testing";
import type { Outcome, Scenario } from "./types.js";

const long = (n: number) => "p".repeat(n);
// A GitHub token shape the secret scanner knows; assembled so the source holds no token literal.
const ghp = ["ghp_", "Pa9Ri7Ty5Ww3Xx1Zz8Qq", "6Nn4Mm2Ll0Kk9Jj7"].join("");
const MISSING = "art_00000000000000000000000000";

const value = (o: Outcome) => (o.ok ? (o.value as Record<string, any>) : {});
const items = (n: number) => (o: Outcome) => (value(o).items?.length === n ? null : `listed ${value(o).items?.length} items, expected ${n}`);

/** The one table. A new scenario is one row. */
export const SCENARIOS: Scenario[] = [
  { name: "full receipt", expect: "ok", step: { kind: "create", input: fullReceipt() } },
  { name: "minimal receipt", expect: "ok", step: { kind: "create", input: minimalReceipt() } },

  // Each way the static gates refuse a receipt.
  { name: "missing required field", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ learned: undefined }) } },
  { name: "empty learned", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ learned: "   " }) } },
  { name: "wrong type", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ learned: 42, evidence: "none" }) } },
  { name: "text over its limit", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ before: long(4001) }) } },
  { name: "title over its limit", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ title: long(201) }) } },
  {
    name: "too many evidence links",
    expect: "validation_failed",
    drop: "invalid",
    step: { kind: "create", input: minimalReceipt({ evidence: Array.from({ length: 51 }, (_, i) => ({ label: `e${i}`, url: "https://e.example/" })) }) },
  },
  { name: "bad tag", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ tags: ["two words"] }) } },
  { name: "unknown outcome status", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ outcome: { status: "done" } }) } },
  { name: "measured without summary", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ outcome: { status: "measured" } }) } },
  { name: "pending without date", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ outcome: { status: "pending" } }) } },
  {
    name: "date that is not ISO 8601",
    expect: "validation_failed",
    drop: "invalid",
    step: { kind: "create", input: minimalReceipt({ outcome: { status: "pending", measure_at: "next Tuesday" } }) },
  },
  {
    name: "unsafe evidence link",
    expect: "validation_failed",
    drop: "unsafe-link",
    step: { kind: "create", input: minimalReceipt({ evidence: [{ label: "x", url: "javascript:alert(1)" }] }) },
  },
  { name: "too thin", expect: "validation_failed", drop: "too-thin", step: { kind: "create", input: minimalReceipt({ changed: "Fixed" }) } },
  { name: "unknown field", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: minimalReceipt({ learnt: "typo" }) } },
  { name: "not an object", expect: "validation_failed", drop: "invalid", step: { kind: "create", input: [minimalReceipt()] } },
  { name: "unknown schema", expect: "unknown_schema", drop: "unknown-schema", step: { kind: "create", input: minimalReceipt({ schema: "cairn.receipt/v9" }) } },

  // The gates that need the server's state.
  { name: "owner not yours", expect: "forbidden", drop: "invalid", step: { kind: "create", input: minimalReceipt({ owner: "team:not-a-member" }) } },
  { name: "follows a missing receipt", expect: "validation_failed", drop: "foreign-link", step: { kind: "create", input: minimalReceipt({ follows: MISSING }) } },
  {
    name: "follows an earlier receipt",
    expect: "ok",
    check: (o) => (value(o).follows?.id ? null : "shows no follows link"),
    setup: [minimalReceipt({ learned: "the first half" })],
    step: { kind: "create", input: fullReceipt({ learned: "the second half" }), follows: 0 },
  },
  {
    name: "duplicate",
    expect: "duplicate",
    drop: "duplicate",
    setup: [minimalReceipt({ learned: "said once" })],
    step: { kind: "create", input: minimalReceipt({ learned: "said once" }) },
  },

  // Secrets and policies.
  {
    name: "secret redacted",
    expect: "ok",
    check: (o) => (value(o).redactions?.length > 0 && !JSON.stringify(value(o)).includes(ghp) ? null : "did not redact the token"),
    step: { kind: "create", input: fullReceipt({ before: `The deploy used ${ghp} from a chat.`, tags: ["export", ghp] }) },
  },
  {
    name: "secret blocked by policy",
    expect: "validation_failed",
    drop: "secret-detected",
    policy: { secrets: "block" },
    step: { kind: "create", input: minimalReceipt({ before: `It was ${ghp}.` }) },
  },
  {
    name: "secret in a refused receipt's title",
    expect: "validation_failed",
    drop: "invalid",
    check: (o) => (!o.ok && o.error.drop?.title_withheld ? null : "did not withhold the title"),
    step: { kind: "create", input: minimalReceipt({ title: `Rotated ${ghp}`, learned: "" }) },
  },
  { name: "policy veto", expect: "validation_failed", drop: "policy-vetoed", policy: { require_evidence: true }, step: { kind: "create", input: minimalReceipt() } },

  // Reading.
  { name: "read", expect: "ok", setup: [fullReceipt({ learned: "to be read" })], step: { kind: "read", of: 0 } },
  { name: "read a missing id", expect: "not_found", step: { kind: "read", id: MISSING } },
  {
    name: "search",
    expect: "ok",
    check: items(1),
    setup: [minimalReceipt({ learned: "The parity flamingo is pink" }), minimalReceipt({ learned: "Unrelated" })],
    step: { kind: "search", q: "flamingo", tag: "receipt" },
  },
  {
    name: "search by tag",
    expect: "ok",
    check: items(2),
    setup: [minimalReceipt({ learned: "first", tags: ["nightly"] }), minimalReceipt({ learned: "second" }), fullReceipt({ tags: ["nightly"] })],
    step: { kind: "search", tag: "nightly" },
  },
  {
    name: "read a receipt that asks a person for something",
    expect: "ok",
    check: (o) => (Array.isArray(value(o).acknowledgements) && value(o).acknowledgements.length === 0 ? null : "shows no empty acknowledgements"),
    setup: [fullReceipt({ learned: "asks a person", human_action: "Approve the retry budget." })],
    step: { kind: "read", of: 0 },
  },
];
