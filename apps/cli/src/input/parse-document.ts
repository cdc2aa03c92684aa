import { jsonSyntaxReason, nestingReason, pathPastDepth } from "@cairn/core/json";
import { LIMITS } from "../light.js";
import { rejectedInput } from "./rejected.js";

export type DocumentFormat = "json" | "yaml";

/**
 * JSON or YAML, decided by the content: a document whose first significant character is
 * `{` or `[` is read as JSON; anything else as YAML. A `{` document that is not JSON but
 * is valid YAML (a flow mapping) is accepted as YAML, unless the file says `.json`.
 */
export function detectFormat(text: string): DocumentFormat {
  const significant = text.replace(/^(\s|#[^\n]*\n)*/, "");
  return significant.startsWith("{") || significant.startsWith("[") ? "json" : "yaml";
}

async function parseYaml(text: string): Promise<{ ok: true; value: unknown } | { ok: false; reason: string }> {
  // yaml costs ~0.07 s to load: only YAML input pays for it.
  const { parseDocument } = await import("yaml");
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) return { ok: false, reason: `is not valid YAML: ${(first.message.split("\n")[0] ?? "").replace(/:$/, "")}` };
  return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) };
}

/**
 * Parses a receipt document. The value is passed through JSON so that what is validated
 * locally (--dry-run) is byte for byte what the server receives.
 */
export async function parseDocument(text: string, path: string): Promise<unknown> {
  if (text.trim() === "") throw rejectedInput("is empty");
  let value: unknown;
  if (detectFormat(text) === "json") {
    try {
      value = JSON.parse(text);
    } catch (err) {
      const yaml = /\.json$/i.test(path) ? undefined : await parseYaml(text);
      if (!yaml?.ok) throw rejectedInput(jsonSyntaxReason(text, err));
      value = yaml.value;
    }
  } else {
    const yaml = await parseYaml(text);
    if (!yaml.ok) throw rejectedInput(yaml.reason);
    value = yaml.value;
  }
  if (value === null || value === undefined) throw rejectedInput("is empty");
  // Before the copy below: JSON.stringify recurses, and a file nested thousands deep would overflow it.
  const deep = pathPastDepth(value, LIMITS.depth);
  if (deep !== undefined) {
    const field = deep.map((s) => String(s).slice(0, LIMITS.fieldPathSegment)).join(".");
    throw rejectedInput(nestingReason(LIMITS.depth), LIMITS.depth, field);
  }
  return JSON.parse(JSON.stringify(value));
}
