/**
 * A run's totals (migration 0017's columns, SPEC §28) are added to as spans are stored, in
 * the statement that stores them, from the rows it actually inserted: that statement is in
 * `cairn_insert_spans` (store/sql), which `run_append_spans` reaches through
 * `cairn_store_spans` and OTLP ingest through `cairn_ingest_spans`. What it needs from
 * JavaScript is what each span adds, below: read here from the attributes the server
 * holds as objects, where the statement would parse each span's JSON text once per field.
 */

/** What one span adds to its run's totals: the columns of a span row that `cairn_insert_spans` sums. */
export interface SpanTotals {
  /** Its status is `error`. */
  error: boolean;
  input_tokens: number;
  output_tokens: number;
  /** `gen_ai.request.model` and `gen_ai.response.model` as text, or "" where there is none. */
  request_model: string;
  response_model: string;
}

/**
 * An attribute as PostgreSQL's `->>` reads it from the stored JSON: a string as itself, JSON
 * null or no attribute as null, anything else as its JSON text (what the row stores).
 */
function attributeText(attributes: Readonly<Record<string, unknown>>, key: string): string | null {
  const v = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
  if (typeof v === "string") return v;
  const json = JSON.stringify(v);
  if (json === undefined || json === "null") return null;
  // A value that serializes as a string (bytes, as base64) is read as that string.
  return json.startsWith('"') ? (JSON.parse(json) as string) : json;
}

/** Token counts are whole numbers of up to 15 digits, as text or JSON numbers; anything else counts 0 (migration 0017's rule). */
const TOKEN_COUNT = /^[0-9]{1,15}$/;
const tokensOf = (attributes: Readonly<Record<string, unknown>>, key: string): number => {
  const text = attributeText(attributes, key);
  return text !== null && TOKEN_COUNT.test(text) ? Number(text) : 0;
};

/** What a span with these attributes and status adds to its run's totals (SPEC §28). */
export function spanTotalsOf(attributes: Readonly<Record<string, unknown>>, status: unknown): SpanTotals {
  return {
    error: typeof status === "object" && status !== null && (status as { code?: unknown }).code === "error",
    input_tokens: tokensOf(attributes, "gen_ai.usage.input_tokens"),
    output_tokens: tokensOf(attributes, "gen_ai.usage.output_tokens"),
    request_model: attributeText(attributes, "gen_ai.request.model") ?? "",
    response_model: attributeText(attributes, "gen_ai.response.model") ?? "",
  };
}

/** A span's conversation (SPEC §28): `gen_ai.conversation.id`, else `session.id`, on the span, else on its resource. */
export function conversationOf(attributes: Readonly<Record<string, unknown>>, resource: Readonly<Record<string, unknown>> = {}): string | null {
  for (const where of [attributes, resource]) {
    for (const key of ["gen_ai.conversation.id", "session.id"]) {
      const v = Object.hasOwn(where, key) ? where[key] : undefined;
      if (typeof v === "string" && v !== "") return v;
      if (typeof v === "number") return String(v);
    }
  }
  return null;
}
