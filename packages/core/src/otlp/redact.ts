import { setImmediate as nextTurn } from "node:timers/promises";
import { CairnError } from "../errors.js";
import type { NormalizedSpan } from "../run/span-checks.js";
import { applySecretRules, type ScannedString, type SecretRules } from "../secrets/policy.js";
import { OTLP_LIMITS } from "./limits.js";
import { BytesValue, setOwn } from "./map.js";

type Obj = Record<string, unknown>;

/**
 * Calls `visit` on every string of a JSON value, keys included, in a fixed order, and
 * rebuilds the value from what it returns. The same walk collects the strings to scan
 * and puts the scanned ones back. A `bytesValue` is visited as the text its bytes spell
 * and stays base64 unless that text held a secret (then it is the redaction marker).
 */
function mapStrings(value: unknown, visit: (s: string, kind: "text" | "key") => string): unknown {
  if (typeof value === "string") return visit(value, "text");
  if (value instanceof BytesValue) {
    const seen = visit(value.text, "key");
    return seen === value.text ? value.base64 : seen;
  }
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, visit));
  if (typeof value === "object" && value !== null) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value)) {
      let key = visit(k, "key");
      // Two keys redacted to the same marker keep both values.
      for (let n = 2; Object.hasOwn(out, key); n++) key = `${key} (${n})`;
      setOwn(out, key, mapStrings(v, visit));
    }
    return out;
  }
  return value;
}

/** The persisted strings of a span: name, status message, attributes (its resource is scanned once, apart). */
const spanParts = (s: NormalizedSpan) => ({ name: s.name, message: s.status?.message ?? null, attributes: s.attributes });

/** Visits every string of a JSON value in `mapStrings`' order, building nothing. */
function eachString(value: unknown, visit: (s: string, kind: "text" | "key" | "bytes") => void): void {
  if (typeof value === "string") visit(value, "text");
  else if (value instanceof BytesValue) visit(value.text, "bytes");
  else if (Array.isArray(value)) for (const v of value) eachString(v, visit);
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      visit(k, "key");
      eachString(v, visit);
    }
  }
}

/** A value's strings to scan, and whether it holds a `bytesValue` (which the rebuild turns into its stored form). */
function collect(value: unknown, at: string): { strings: ScannedString[]; bytes: boolean } {
  const strings: ScannedString[] = [];
  let bytes = false;
  eachString(value, (text, kind) => {
    if (kind === "bytes") bytes = true;
    strings.push({ field: `${at}[${strings.length}]`, value: text, ...(kind !== "text" && { kind: "key" as const }) });
  });
  return { strings, bytes };
}

const sizeOf = (strings: readonly ScannedString[]) => strings.reduce((n, s) => n + s.value.length, 0);

/** A span to scan, under its owner's rules, with the resource it names (an index into the resources). */
export interface SpanToScan {
  span: NormalizedSpan;
  resource: number;
  rules: SecretRules;
}

export interface ScannedRequest {
  /** Spans as they will be stored, by index; undefined for a span refused here. */
  spans: Array<NormalizedSpan | undefined>;
  /** Resources' attributes as they will be stored, by index; undefined for one no kept span names. */
  resources: Array<Obj | undefined>;
  /** Refusals by reason. */
  rejected: Map<string, number>;
  /** How many strings were redacted. */
  redactions: number;
}

/** Characters handed to the scanner at once; between two calls other requests get the event loop. */
const SCAN_BATCH_CHARS = 128 * 1024;

const overBound = `the request's stored text passed ${OTLP_LIMITS.requestText} characters (resources counted once)`;

/**
 * Scans every persisted string of a request under its owners' policies (§7): each span's
 * name, status message and attributes, and each resource's attributes ONCE however many
 * spans name it (SPEC §31). The text kept is bounded per request (OTLP_LIMITS.requestText,
 * ADR 0043): spans past it, in request order, are refused and counted; a resource counts
 * with the first span kept that names it. Strings are redacted in place; under
 * `secrets: block` a span carrying a secret (or whose resource carries one) is refused.
 * Scanned in batches with a turn of the event loop between them.
 */
export async function redactRequest(resources: readonly Obj[], items: readonly SpanToScan[]): Promise<ScannedRequest> {
  const rejected = new Map<string, number>();
  const refuse = (reason: string) => rejected.set(reason, (rejected.get(reason) ?? 0) + 1);
  const spanStrings: Array<ScannedString[] | undefined> = [];
  const resourceStrings: Array<ScannedString[] | undefined> = [];
  const resourceRules: Array<SecretRules | undefined> = [];
  // Units ("s3", "r0") that must be rebuilt: a string of theirs changed, or they hold a bytesValue.
  const rebuilt = new Set<string>();
  let total = 0;
  items.forEach((item, i) => {
    const own = collect(spanParts(item.span), `s${i}`);
    const fresh = resourceStrings[item.resource] === undefined;
    const shared = fresh ? collect(resources[item.resource], `r${item.resource}`) : { strings: [], bytes: false };
    const size = sizeOf(own.strings) + sizeOf(shared.strings);
    if (total + size > OTLP_LIMITS.requestText) {
      refuse(overBound);
      return;
    }
    total += size;
    spanStrings[i] = own.strings;
    if (own.bytes) rebuilt.add(`s${i}`);
    if (fresh) {
      resourceStrings[item.resource] = shared.strings;
      resourceRules[item.resource] = item.rules;
      if (shared.bytes) rebuilt.add(`r${item.resource}`);
    }
  });

  // Units to scan, each under one owner's rules: a resource, or a span.
  type Unit = { kind: "r" | "s"; i: number; strings: ScannedString[]; rules: SecretRules };
  const units: Unit[] = [];
  resourceStrings.forEach((strings, i) => {
    if (strings) units.push({ kind: "r", i, strings, rules: resourceRules[i] as SecretRules });
  });
  spanStrings.forEach((strings, i) => {
    if (strings) units.push({ kind: "s", i, strings, rules: (items[i] as SpanToScan).rules });
  });
  const values = new Map<string, string>();
  const badResources = new Map<number, string>();
  const badSpans = new Map<number, string>();
  let redactions = 0;
  const byRules = new Map<SecretRules, Unit[]>();
  for (const unit of units) {
    const list = byRules.get(unit.rules);
    if (list) list.push(unit);
    else byRules.set(unit.rules, [unit]);
  }
  for (const [rules, list] of byRules) {
    let batch: Unit[] = [];
    let chars = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const strings = batch.flatMap((u) => u.strings);
      const done = batch;
      batch = [];
      chars = 0;
      try {
        const result = await applySecretRules(strings, rules);
        redactions += result.redactions.length;
        strings.forEach((s, n) => {
          const after = result.values[n] as string;
          if (after !== s.value) {
            values.set(s.field, after);
            rebuilt.add(s.field.slice(0, s.field.indexOf("[")));
          }
        });
      } catch (err) {
        if (!(err instanceof CairnError) || err.code !== "validation_failed") throw err;
        // Blocked (or past the scanner's hit bound): refuse what is named, keep the rest as it is.
        const named = new Set((err.issues ?? []).map((issue) => /^([rs]\d+)\[/.exec(issue.field)?.[1] ?? "?"));
        const reason = rules.secrets === "block" ? "contains a secret; the owner's policy blocks secrets" : "could not be scanned for secrets";
        for (const u of done) {
          if (!named.has(`${u.kind}${u.i}`) && !named.has("?")) continue;
          (u.kind === "r" ? badResources : badSpans).set(u.i, reason);
        }
      }
      await nextTurn();
    };
    for (const unit of list) {
      const size = sizeOf(unit.strings);
      if (chars + size > SCAN_BATCH_CHARS) await flush();
      batch.push(unit);
      chars += size;
    }
    await flush();
  }

  const rebuild = (value: unknown, at: string) => {
    let n = 0;
    return mapStrings(value, (text) => values.get(`${at}[${n++}]`) ?? text);
  };
  // A unit with nothing changed and no bytesValue is stored as it came: rebuilding would copy it as it is.
  const outResources: Array<Obj | undefined> = resources.map((attributes, i) =>
    resourceStrings[i] === undefined || badResources.has(i) ? undefined : rebuilt.has(`r${i}`) ? (rebuild(attributes, `r${i}`) as Obj) : attributes,
  );
  const outSpans = items.map((item, i): NormalizedSpan | undefined => {
    if (spanStrings[i] === undefined) return undefined;
    const bad = badSpans.get(i) ?? badResources.get(item.resource);
    if (bad !== undefined) {
      refuse(bad);
      return undefined;
    }
    if (!rebuilt.has(`s${i}`)) return item.span;
    const parts = rebuild(spanParts(item.span), `s${i}`) as ReturnType<typeof spanParts>;
    return {
      ...item.span,
      name: parts.name,
      attributes: parts.attributes,
      status: item.span.status && { ...item.span.status, message: parts.message },
    };
  });
  return { spans: outSpans, resources: outResources, rejected, redactions };
}
