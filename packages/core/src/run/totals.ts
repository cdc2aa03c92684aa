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

/** What a new run's row is written with when every span of its trace goes in with it: its totals, whole. */
export interface RunTotals {
  span_count: number;
  error_count: number;
  input_tokens: number;
  output_tokens: number;
  first_start_at: string;
  last_end_at: string | null;
  /** Its root span's end (a span without a parent), or null while none has ended. */
  ended_at: string | null;
  /** The distinct conversations and models seen; the database picks the least and sorts, in its own collation, as it does for a run's later spans. */
  conversations: string[];
  models: string[];
}

/** One span as a run's totals read it. */
export interface SpanForTotals {
  parent_span_id: string | null;
  start_time: string;
  end_time: string | null;
  conversation_id: string | null;
  totals: SpanTotals;
}

/**
 * The totals of a run whose spans are exactly these (distinct span ids), as
 * `cairn_insert_spans` would add them up: what a run made by this export is inserted
 * with, so its row is written once rather than inserted and then updated across the
 * runs' indexes (ADR 0073). Null when a sum would not be exact as a JavaScript number: the
 * database adds those up instead.
 */
export function runTotalsOf(spans: readonly SpanForTotals[]): RunTotals | null {
  let errors = 0;
  let input = 0;
  let output = 0;
  let firstStart = Number.POSITIVE_INFINITY;
  let first = "";
  let lastEnd = Number.NEGATIVE_INFINITY;
  let last: string | null = null;
  let rootEnd = Number.NEGATIVE_INFINITY;
  let root: string | null = null;
  const conversations = new Set<string>();
  const models = new Set<string>();
  for (const s of spans) {
    if (s.totals.error) errors++;
    input += s.totals.input_tokens;
    output += s.totals.output_tokens;
    // Compared as instants: an ISO string past year 9999 does not sort as text.
    const start = Date.parse(s.start_time);
    if (start < firstStart) [firstStart, first] = [start, s.start_time];
    if (s.end_time !== null) {
      const end = Date.parse(s.end_time);
      if (end > lastEnd) [lastEnd, last] = [end, s.end_time];
      if (s.parent_span_id === null && end > rootEnd) [rootEnd, root] = [end, s.end_time];
    }
    if (s.conversation_id !== null) conversations.add(s.conversation_id);
    if (s.totals.request_model !== "") models.add(s.totals.request_model);
    if (s.totals.response_model !== "") models.add(s.totals.response_model);
  }
  if (spans.length === 0 || !Number.isSafeInteger(input) || !Number.isSafeInteger(output)) return null;
  return {
    span_count: spans.length,
    error_count: errors,
    input_tokens: input,
    output_tokens: output,
    first_start_at: first,
    last_end_at: last,
    ended_at: root,
    conversations: [...conversations],
    models: [...models],
  };
}
