import { newId } from "../ids.js";
import type { Sql } from "../store/port.js";
import { EVENT_DATA, type EventType, type NewEvent, TEST_EVENT_TYPE, TestEventData } from "./schemas.js";
import { ringOutbox } from "./wake.js";

/**
 * The payload bytes, built once: `{"type","id","created_at","data"}` in that order, `data`
 * in its schema's key order with anything the schema does not name stripped. These bytes
 * are stored and sent unchanged on every attempt, so the signature, the id and the body
 * a receiver deduplicates on never change.
 */
export function eventPayload(type: EventType, id: string, createdAt: Date, data: unknown): string {
  const parsed = EVENT_DATA[type].parse(data);
  return JSON.stringify({ type, id, created_at: createdAt.toISOString(), data: parsed });
}

/** The bytes of a `webhook.test` event, in the same envelope as every other type. */
export function testEventPayload(id: string, createdAt: Date, subscriptionId: string): string {
  return JSON.stringify({ type: TEST_EVENT_TYPE, id, created_at: createdAt.toISOString(), data: TestEventData.parse({ subscription_id: subscriptionId }) });
}

/** The argument of `cairn_record_event` (migration 0010). */
export function eventArgument(event: NewEvent, id: string, payload: string, now: Date): Record<string, string> {
  return { id, type: event.type, owner: event.owner, payload, created_at: now.toISOString() };
}

/**
 * Writes an event to the outbox in the caller's transaction and queues one delivery per
 * enabled subscription of the owner whose filter takes the type — one statement, so it is
 * atomic even outside a transaction. Nothing is sent unless the caller commits; after the
 * commit the in-process worker is woken if a delivery was queued. Most owners have no
 * subscription, and a wake-up for nothing is a claim transaction for nothing: under load,
 * one per write, competing with the writes for connections (ADR 0026). Returns the event
 * id (the `webhook-id`).
 */
export async function recordEvent(tx: Sql, event: NewEvent, now: Date): Promise<string> {
  const id = newId("evt", now);
  const payload = eventPayload(event.type, id, now, event.data);
  const [row] = await tx.query<{ queued: number }>("select cairn_record_event($1::jsonb) as queued", [JSON.stringify(eventArgument(event, id, payload, now))]);
  // Nothing to send (the owner has no subscription that takes the type): no worker to wake.
  if ((row?.queued ?? 0) > 0) tx.afterCommit(ringOutbox);
  return id;
}
