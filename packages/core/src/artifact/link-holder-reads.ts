import { setImmediate } from "node:timers";
import type { Store } from "../store/port.js";
import type { LinkHolderRow } from "./internal.js";

/**
 * Tokens per call at most. A page of a few KB each; far above what one turn of the event
 * loop gathers at any concurrency a server sees, so it bounds a call rather than shapes it.
 */
const MOST_PER_CALL = 256;

const READS = "select cairn_link_holder_reads($1::text[]) as rows";

interface Waiting {
  token: string;
  resolve: (row: LinkHolderRow | null) => void;
  reject: (err: unknown) => void;
}

/**
 * Share-page reads of one store, gathered for one turn of the event loop and sent as one
 * call of `cairn_link_holder_reads` (ADR 0065). Every read still goes to the database after
 * its request arrived and gets a row of its own (the same token twice is read twice), so a
 * page is never older than a read sent alone would be; what is shared is the round trip
 * and the statement, which were most of a share page's cost under load.
 */
class LinkHolderReads {
  #waiting: Waiting[] = [];

  constructor(private readonly store: Store) {}

  read(token: string): Promise<LinkHolderRow | null> {
    return new Promise((resolve, reject) => {
      // setImmediate runs after the event loop's poll phase: every request whose bytes
      // arrived in this turn has asked by then, and a lone read waits for nothing else.
      if (this.#waiting.length === 0) setImmediate(() => this.#send());
      this.#waiting.push({ token, resolve, reject });
    });
  }

  #send(): void {
    const batch = this.#waiting;
    this.#waiting = [];
    for (let start = 0; start < batch.length; start += MOST_PER_CALL) {
      const part = batch.slice(start, start + MOST_PER_CALL);
      this.store.query<{ rows: Array<LinkHolderRow | null> | null }>(READS, [part.map((w) => w.token)]).then(
        (result) => {
          const rows = result[0]?.rows ?? [];
          for (const [i, w] of part.entries()) w.resolve(rows[i] ?? null);
        },
        (err: unknown) => {
          for (const w of part) w.reject(err);
        },
      );
    }
  }
}

const byStore = new WeakMap<Store, LinkHolderReads>();

/** The row a holder of `token` may see, with its acknowledgements and `followed`; null when no artifact has it. */
export function readLinkHolderRow(store: Store, token: string): Promise<LinkHolderRow | null> {
  let reads = byStore.get(store);
  if (reads === undefined) {
    reads = new LinkHolderReads(store);
    byStore.set(store, reads);
  }
  return reads.read(token);
}
