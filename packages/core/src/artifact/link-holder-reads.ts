import { LruMap } from "../lru.js";
import { PerTurn, perStore } from "../store/per-turn.js";
import type { Store } from "../store/port.js";
import type { LinkHolderRow } from "./internal.js";

const READS = "select cairn_link_holder_reads($1::text[]) as rows";

/**
 * Share-page reads of one store, gathered for one turn of the event loop and sent as one
 * call of `cairn_link_holder_reads` (ADR 0065). Every token gets a row of its own (the same
 * token twice is read twice), so two pages never share an object; what is shared is the
 * round trip and the statement, which were most of a share page's cost under load. At most
 * 256 tokens per call: far above what one turn gathers, so it bounds a call, not shapes it.
 */
const readsOf = perStore(
  (store) =>
    new PerTurn<string, LinkHolderRow | null>({
      most: 256,
      send: async (tokens) => {
        // The read changes nothing (the function is STABLE), so it leaves a counting store's count be.
        const query = store.changes ? store.changes.readOnly.bind(store.changes) : store.query.bind(store);
        const rows = (await query<{ rows: Array<LinkHolderRow | null> | null }>(READS, [tokens]))[0]?.rows ?? [];
        return tokens.map((_, i) => rows[i] ?? null);
      },
    }),
);

/** How many rows a counting store's process keeps, and the longest body it keeps one with. */
const KEPT_ROWS = { most: 256, bodyChars: 32 * 1024 } as const;

interface Kept {
  /** The store's change count the row was read under. */
  count: number;
  row: LinkHolderRow | null;
}

const keptOf = perStore(() => new LruMap<string, Kept>(KEPT_ROWS.most));

/** Frozen all the way down: a kept row is every later reader's, so no reader may change it. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * The row a holder of `token` may see, with its acknowledgements and `followed`; null when
 * no artifact has it. On a store that counts its changes (the embedded store, ADR 0068)
 * the row is answered again while the count has not moved since it was read: nothing was
 * written in between, so it is the row a new read would return. Anything that depends on
 * the time (expiry, an overdue outcome) is worked out from the row on every read.
 */
export async function readLinkHolderRow(store: Store, token: string): Promise<LinkHolderRow | null> {
  const changes = store.changes;
  if (!changes) return readsOf(store).call(token);
  const kept = keptOf(store);
  const before = changes.count();
  const hit = kept.get(token);
  if (hit && hit.count === before) return hit.row;
  const row = await readsOf(store).call(token);
  // Kept only when nothing was sent or finished while it was read, and not too large to keep.
  if (changes.count() === before && (row === null || row.body.length <= KEPT_ROWS.bodyChars)) kept.set(token, { count: before, row: frozen(row) });
  return row;
}
