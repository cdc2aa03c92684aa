import { isLockConflict, NOT_READ_COMMITTED, StoreError } from "./faults.js";
import type { Sql, Store } from "./port.js";

/**
 * One call of a write function whose statements each need a new snapshot (ADR 0028): sent
 * on its own, one round trip. When the database's default isolation made it refuse before
 * writing (`CA001`), or — with `lockConflicts` — a deadlock or serialization failure ended
 * it, it runs again in a transaction the store begins as read committed, which retries
 * lock conflicts.
 */
export async function callReadCommitted<T>(store: Store, call: (sql: Sql) => Promise<T>, { lockConflicts = false } = {}): Promise<T> {
  try {
    return await call(store);
  } catch (err) {
    const again = (err instanceof StoreError && err.code === NOT_READ_COMMITTED) || (lockConflicts && isLockConflict(err));
    if (!again) throw err;
    return store.transaction(call);
  }
}
