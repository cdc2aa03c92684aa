import { MAX_IN_FLIGHT_PER_SUBSCRIPTION } from "../events/deliver.js";
import type { Store } from "../store/port.js";

class RolledBack extends Error {}

/**
 * The events of one subscription a worker's claim would take at `at` — the real claim
 * (`cairn_claim_deliveries`), in a transaction that is rolled back, so nothing is claimed.
 * With a clock past every retry and lease, an empty answer proves that nothing more of the
 * subscription will ever be sent: the honest form of "wait, and see that nothing arrives".
 */
export async function claimableAt(store: Store, subscriptionId: string, at: Date): Promise<string[]> {
  let events: string[] = [];
  await store
    .transaction(async (tx) => {
      const rows = await tx.query<{ event_id: string; subscription_id: string }>(
        "select event_id, subscription_id from cairn_claim_deliveries($1::timestamptz, 1000, $2::timestamptz, $3::int)",
        [at.toISOString(), new Date(at.getTime() + 60_000).toISOString(), MAX_IN_FLIGHT_PER_SUBSCRIPTION],
      );
      events = rows.filter((r) => r.subscription_id === subscriptionId).map((r) => r.event_id);
      throw new RolledBack();
    })
    .catch((err: unknown) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  return events;
}

/** A clock a week ahead: past every retry of a test schedule, every lease and every Retry-After. */
export const aWeekLater = () => new Date(Date.now() + 7 * 86_400_000);
