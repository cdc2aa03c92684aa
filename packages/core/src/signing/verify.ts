import type { ArtifactRow } from "../artifact/internal.js";
import { checksumOf } from "../checksum.js";
import { DsseEnvelope, IN_TOTO_PAYLOAD_TYPE, signatureVerifies } from "./dsse.js";
import { DECISION_PREDICATE_TYPE, detailsOf, RECEIPT_PREDICATE_TYPE, type ReceiptPredicate, rerender, STATEMENT_TYPE } from "./in-toto.js";
import { verifyingKeyOf } from "./keys.js";
import type { Jwk } from "./schemas.js";
import { VERIFY_CHECKS, type VerifyCheck, type VerifyCheckName, type VerifyResult } from "./verify-schemas.js";

type Outcome = { ok: true; detail: string } | { ok: false; detail: string };

/** Runs the checks in order; after the first failure the rest are skipped. */
function runChecks(id: string | null, steps: Array<[VerifyCheckName, () => Outcome]>): VerifyResult {
  const checks: VerifyCheck[] = [];
  let failed: VerifyCheckName | null = null;
  for (const name of VERIFY_CHECKS) {
    const step = steps.find(([n]) => n === name);
    if (!step) {
      checks.push({ name, status: "skipped", detail: "does not apply" });
      continue;
    }
    if (failed) {
      checks.push({ name, status: "skipped", detail: `not checked: ${failed} failed` });
      continue;
    }
    const outcome = step[1]();
    checks.push({ name, status: outcome.ok ? "pass" : "fail", detail: outcome.detail });
    if (!outcome.ok) failed = name;
  }
  return { valid: failed === null, id, failed, checks };
}

const pass = (detail: string): Outcome => ({ ok: true, detail });
const fail = (detail: string): Outcome => ({ ok: false, detail });

function checksumStep(predicate: Pick<ReceiptPredicate, "title" | "metadata" | "details">, expectedHex: string): Outcome {
  const rendered = rerender(predicate);
  if (!rendered.ok) return fail(`the body could not be re-rendered: ${rendered.reason}`);
  return rendered.checksum === `sha256:${expectedHex}`
    ? pass(`the re-rendered body has the checksum ${rendered.checksum}`)
    : fail(`the re-rendered body has the checksum ${rendered.checksum}, the receipt claims sha256:${expectedHex}`);
}

interface ParsedLine {
  envelope: DsseEnvelope;
  predicate: ReceiptPredicate;
  id: string;
  digest: string;
  /** A decision's line (SPEC §32): what it claims is checked against its own ask, not a body. */
  decision?: { ask: { options?: Array<{ id?: unknown; label?: unknown }> }; decision: { state?: unknown; option?: unknown; label?: unknown } };
}

function parseLine(line: string): { ok: true; value: ParsedLine } | { ok: false; detail: string; id: string | null } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, detail: "the line is not JSON", id: null };
  }
  const envelope = DsseEnvelope.safeParse(json);
  if (!envelope.success) return { ok: false, detail: "the line is not a DSSE envelope (payload, payloadType, signatures)", id: null };
  if (envelope.data.payloadType !== IN_TOTO_PAYLOAD_TYPE) return { ok: false, detail: `payloadType is not ${IN_TOTO_PAYLOAD_TYPE}`, id: null };
  let statement: Record<string, unknown>;
  try {
    statement = JSON.parse(Buffer.from(envelope.data.payload, "base64").toString("utf8"));
  } catch {
    return { ok: false, detail: "the payload is not base64 JSON", id: null };
  }
  const subject = (statement.subject as Array<{ name?: unknown; digest?: { sha256?: unknown } }> | undefined)?.[0];
  const name = typeof subject?.name === "string" ? subject.name : "";
  const id = name.startsWith("cairn:") ? name.slice("cairn:".length) : null;
  const digest = subject?.digest?.sha256;
  const predicate = statement.predicate as ReceiptPredicate | undefined;
  if (statement._type !== STATEMENT_TYPE) return { ok: false, detail: `the payload is not an in-toto Statement v1`, id };
  const isDecision = statement.predicateType === DECISION_PREDICATE_TYPE;
  if (statement.predicateType !== RECEIPT_PREDICATE_TYPE && !isDecision) {
    return { ok: false, detail: `predicateType is not ${RECEIPT_PREDICATE_TYPE} or ${DECISION_PREDICATE_TYPE}`, id };
  }
  if (id === null || typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest)) {
    return { ok: false, detail: "the subject is not cairn:<id> with a sha256 digest", id };
  }
  if (isDecision) {
    const p = statement.predicate as ParsedLine["decision"] | undefined;
    if (typeof p?.ask !== "object" || typeof p?.decision !== "object" || p.ask === null || p.decision === null) {
      return { ok: false, detail: "the predicate has no ask and decision", id };
    }
    return { ok: true, value: { envelope: envelope.data, predicate: { title: "" } as ReceiptPredicate, id, digest, decision: p } };
  }
  if (typeof predicate !== "object" || predicate === null || typeof predicate.title !== "string") {
    return { ok: false, detail: "the predicate has no title, metadata and details", id };
  }
  return { ok: true, value: { envelope: envelope.data, predicate: { ...predicate, details: predicate.details ?? null }, id, digest } };
}

/**
 * Verifies one exported line against a set of public keys, offline: payload → key →
 * signature → checksum. Pure, so `cairn verify --keys` and the server give the same answer.
 */
export function verifyLine(line: string, keys: readonly Partial<Jwk>[]): VerifyResult {
  const parsed = parseLine(line.trim());
  if (!parsed.ok) return runChecks(parsed.id, [["payload", () => fail(parsed.detail)]]);
  const { envelope, predicate, id, digest, decision } = parsed.value;
  const kids = envelope.signatures.map((s) => s.keyid);
  const key = keys.find((k) => typeof k.kid === "string" && kids.includes(k.kid));
  const publicKey = key ? verifyingKeyOf(key) : null;
  return runChecks(id, [
    ["payload", () => pass(`a DSSE envelope holding an in-toto Statement v1 of a Cairn ${decision ? "decision" : "receipt"}`)],
    ["key", () => (key && publicKey ? pass(`signed with key ${key.kid}`) : fail(`no published key has the keyid ${kids.join(", ") || "(none)"}`))],
    [
      "signature",
      () =>
        publicKey && key?.kid && signatureVerifies(envelope, publicKey, key.kid)
          ? pass("the Ed25519 signature over the DSSE pre-authentication encoding verifies")
          : fail("the signature does not verify: the line was changed after signing, or signed by another key"),
    ],
    ["checksum", () => (decision ? decisionStep(decision) : checksumStep(predicate, digest))],
  ]);
}

/** A decision line holds together: a decided option is one its ask offered, under the label it offered. */
function decisionStep({ ask, decision }: NonNullable<ParsedLine["decision"]>): Outcome {
  if (decision.state === "expired") return pass("the ask expired unanswered");
  const offered = (ask.options ?? []).find((o) => o.id === decision.option);
  if (decision.state !== "decided" || !offered) return fail("the decision names no option its ask offered");
  return offered.label === decision.label
    ? pass(`the decision is the ask's option ${String(decision.option)}`)
    : fail("the decision's label is not its option's");
}

/** Verifies a stored artifact: its body matches its checksum, and a receipt's body re-renders to it. */
export function verifyStored(row: ArtifactRow): VerifyResult {
  const hex = row.checksum.replace(/^sha256:/, "");
  return runChecks(row.id, [
    [
      "checksum",
      () => {
        if (checksumOf(row.body) !== row.checksum) return fail(`the stored body does not have its checksum ${row.checksum}`);
        if (row.metadata === null) return pass(`the body has the checksum ${row.checksum} (a plain artifact: nothing to re-render)`);
        return checksumStep({ title: row.title, metadata: row.metadata, details: detailsOf(row) }, hex);
      },
    ],
  ]);
}
