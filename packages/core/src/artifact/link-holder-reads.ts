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
        const rows = (await store.query<{ rows: Array<LinkHolderRow | null> | null }>(READS, [tokens]))[0]?.rows ?? [];
        return tokens.map((_, i) => rows[i] ?? null);
      },
    }),
);

/** The row a holder of `token` may see, with its acknowledgements and `followed`; null when no artifact has it. */
export function readLinkHolderRow(store: Store, token: string): Promise<LinkHolderRow | null> {
  return readsOf(store).call(token);
}
