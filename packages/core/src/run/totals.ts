/**
 * A run's totals (migration 0017's columns, SPEC §28) are added to as spans are stored, in
 * the statement that stores them, from the rows it actually inserted: that statement is in
 * `cairn_insert_spans` (store/sql), which `run_append_spans` reaches through
 * `cairn_store_spans` and OTLP ingest through `cairn_ingest_spans`. What it needs from
 * JavaScript is each span's conversation, below.
 */

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
