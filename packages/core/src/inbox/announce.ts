import type { Sql } from "../store/port.js";

/** The two events of the human loop (SPEC §10), written in the transaction of what they announce. */
export type InboxEventType = "receipt.acknowledged" | "receipt.measure_due";

export interface InboxEvent {
  type: InboxEventType;
  /** The receipt's owner: the event goes to that owner's subscriptions. */
  owner: string;
  data: Record<string, unknown>;
}

/**
 * The one place the human loop hands an event to the transactional outbox. It runs inside
 * the caller's transaction, so the event exists exactly when the acknowledgement or the
 * measure_due notice does.
 *
 * OUTBOX SEAM: until the outbox (`recordEvent(tx, …)`) is in this tree, the records
 * themselves (acknowledgements, measure_due_notices) are the durable trace and nothing is
 * delivered; wiring the outbox is this function's body and nothing else.
 */
export async function announce(_tx: Sql, _event: InboxEvent, _now: Date): Promise<void> {}
