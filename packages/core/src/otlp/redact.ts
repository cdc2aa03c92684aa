import { CairnError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { NormalizedSpan } from "../run/span-checks.js";
import { applySecretRules, type ScannedString, type SecretRules } from "../secrets/policy.js";

/**
 * Calls `visit` on every string of a JSON value, keys included, in a fixed order, and
 * rebuilds the value from what it returns. The same walk collects the strings to scan
 * and puts the scanned ones back.
 */
function mapStrings(value: unknown, visit: (s: string, kind: "text" | "key") => string): unknown {
  if (typeof value === "string") return visit(value, "text");
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, visit));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      let key = visit(k, "key");
      // Two keys redacted to the same marker keep both values.
      for (let n = 2; key in out; n++) key = `${key} (${n})`;
      out[key] = mapStrings(v, visit);
    }
    return out;
  }
  return value;
}

/** The persisted strings of a span: name, status message, attributes and resource, keys and values. */
const spanParts = (s: NormalizedSpan) => ({ name: s.name, message: s.status?.message ?? null, attributes: s.attributes, resource: s.resource });

function collect(span: NormalizedSpan, at: string): ScannedString[] {
  const strings: ScannedString[] = [];
  mapStrings(spanParts(span), (value, kind) => {
    strings.push({ field: `${at}[${strings.length}]`, value, ...(kind === "key" && { kind }) });
    return value;
  });
  return strings;
}

export interface RedactedSpans {
  /** The spans as they will be stored, by index; undefined for a span refused here. */
  spans: Array<NormalizedSpan | undefined>;
  /** Refusals by reason (the owner's policy blocks secrets; more text than the scanner reads). */
  rejected: Map<string, number>;
  /** How many strings were redacted. */
  redactions: number;
}

/**
 * Scans every persisted string of the spans under the owner's policy (§7), as run spans
 * are scanned: redacted in place, or under `secrets: block` the span carrying one is
 * refused. Spans are scanned in batches that stay within the scanner's per-call bound.
 */
export async function redactTraceSpans(spans: readonly NormalizedSpan[], rules: SecretRules): Promise<RedactedSpans> {
  const out: Array<NormalizedSpan | undefined> = [...spans];
  const rejected = new Map<string, number>();
  let redactions = 0;
  const refuse = (i: number, reason: string) => {
    out[i] = undefined;
    rejected.set(reason, (rejected.get(reason) ?? 0) + 1);
  };
  const batches: Array<Array<{ i: number; strings: ScannedString[] }>> = [];
  let batch: Array<{ i: number; strings: ScannedString[] }> = [];
  let chars = 0;
  spans.forEach((span, i) => {
    const strings = collect(span, `spans.${i}`);
    const size = strings.reduce((n, s) => n + s.value.length, 0);
    if (size > LIMITS.scanChars) {
      refuse(i, `has more text than the secret scanner reads (${LIMITS.scanChars} characters)`);
      return;
    }
    if (chars + size > LIMITS.scanChars && batch.length > 0) {
      batches.push(batch);
      batch = [];
      chars = 0;
    }
    batch.push({ i, strings });
    chars += size;
  });
  if (batch.length > 0) batches.push(batch);

  for (const items of batches) {
    const strings = items.flatMap((item) => item.strings);
    let result: Awaited<ReturnType<typeof applySecretRules>>;
    try {
      result = await applySecretRules(strings, rules);
    } catch (err) {
      if (!(err instanceof CairnError) || err.code !== "validation_failed") throw err;
      // Blocked (or past the scanner's hit bound): refuse the spans named, keep the rest as they are.
      const named = new Set((err.issues ?? []).map((issue) => Number(/^spans\.(\d+)\[/.exec(issue.field)?.[1])));
      for (const item of items) {
        if (named.has(item.i) || named.has(Number.NaN)) refuse(item.i, rules.secrets === "block" ? "contains a secret; the owner's policy blocks secrets" : "could not be scanned for secrets");
      }
      continue;
    }
    if (result.redactions.length === 0) continue;
    redactions += result.redactions.length;
    let offset = 0;
    for (const item of items) {
      const span = spans[item.i] as NormalizedSpan;
      let n = offset;
      const parts = mapStrings(spanParts(span), () => result.values[n++] as string) as ReturnType<typeof spanParts>;
      offset += item.strings.length;
      out[item.i] = {
        ...span,
        name: parts.name,
        attributes: parts.attributes as Record<string, unknown>,
        resource: parts.resource as Record<string, unknown>,
        status: span.status && { ...span.status, message: parts.message },
      };
    }
  }
  return { spans: out, rejected, redactions };
}
