import { applySecretRules, type ScannedString, type SecretRules } from "../secrets/policy.js";
import type { NormalizedSpan } from "./span-checks.js";

/**
 * Spans as they will be stored, every persisted string scanned: the name, each attribute
 * key and each string value (lists included). Attributes are named by position
 * (`spans.0.attributes[2]`), so a refusal never repeats a key that is itself a secret.
 */
export async function redactSpans(spans: readonly NormalizedSpan[], rules: SecretRules): Promise<NormalizedSpan[]> {
  const strings: ScannedString[] = [];
  const take = (field: string, value: string, kind?: ScannedString["kind"]) => {
    strings.push({ field, value, ...(kind && { kind }) });
    return strings.length - 1;
  };
  type Slot = { name: number; attributes: Array<{ key: number; value: unknown }> };
  const slots: Slot[] = spans.map((span, i) => ({
    name: take(`spans.${i}.name`, span.name),
    attributes: Object.entries(span.attributes).map(([key, value], j) => {
      const at = `spans.${i}.attributes[${j}]`;
      const slot =
        typeof value === "string"
          ? take(`${at}.value`, value)
          : Array.isArray(value)
            ? value.map((v, n) => (typeof v === "string" ? take(`${at}.value.${n}`, v) : { v }))
            : { v: value };
      return { key: take(at, key, "key"), value: slot };
    }),
  }));
  const { values, redactions } = await applySecretRules(strings, rules);
  if (redactions.length === 0) return [...spans];
  const text = (n: number) => values[n] as string;
  const restore = (slot: unknown): unknown => (typeof slot === "number" ? text(slot) : Array.isArray(slot) ? slot.map(restore) : (slot as { v: unknown }).v);
  return spans.map((span, i) => {
    const slot = slots[i] as Slot;
    const attributes: Record<string, unknown> = {};
    for (const a of slot.attributes) {
      let key = text(a.key);
      // Two keys redacted to the same marker keep both values.
      for (let n = 2; key in attributes; n++) key = `${text(a.key)} (${n})`;
      attributes[key] = restore(a.value);
    }
    return { ...span, name: text(slot.name), attributes };
  });
}
