import { setImmediate } from "node:timers";
import type { Store } from "./port.js";

interface Waiting<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (err: unknown) => void;
}

export interface PerTurnOptions<I, O> {
  /** One call for many inputs: its answers in the inputs' order. */
  send: (inputs: I[]) => Promise<O[]>;
  /** Inputs per call at most. */
  most: number;
  /** With `size`: the inputs of one call weigh at most this much together (an input heavier alone goes alone). */
  mostSize?: number;
  size?: (input: I) => number;
  /**
   * When a call for several inputs fails, each is sent again alone, so one input's failure
   * (or a fault that ended the whole call) is answered to that input only, as it would have
   * been had it been sent alone. Only for calls that wrote nothing when they failed.
   */
  aloneOnFailure?: boolean;
}

/**
 * Calls gathered for one turn of the event loop and sent together (ADR 0065): the inputs
 * that arrive before the turn's check phase — every request whose bytes arrived in this
 * turn has asked by then — go in one call, and a lone input waits for nothing else. A call
 * that reaches `most` inputs goes at once (ADR 0072). Each input is still sent after it
 * arrived, so an answer is never older than one sent alone.
 */
export class PerTurn<I, O> {
  #waiting: Waiting<I, O>[] = [];

  constructor(private readonly options: PerTurnOptions<I, O>) {}

  call(input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.length === 0) setImmediate(() => this.#flush());
      this.#waiting.push({ input, resolve, reject });
      // A full call goes now: the database starts on it while this turn's other requests are still being prepared.
      if (this.#waiting.length >= this.options.most) this.#flush();
    });
  }

  #flush(): void {
    const { most, mostSize = Number.POSITIVE_INFINITY, size = () => 0 } = this.options;
    const gathered = this.#waiting;
    this.#waiting = [];
    let part: Waiting<I, O>[] = [];
    let weight = 0;
    for (const w of gathered) {
      const own = size(w.input);
      if (part.length > 0 && (part.length === most || weight + own > mostSize)) {
        void this.#send(part);
        part = [];
        weight = 0;
      }
      part.push(w);
      weight += own;
    }
    if (part.length > 0) void this.#send(part);
  }

  async #send(part: Waiting<I, O>[]): Promise<void> {
    let outputs: O[];
    try {
      outputs = await this.options.send(part.map((w) => w.input));
    } catch (err) {
      if (this.options.aloneOnFailure && part.length > 1) {
        for (const w of part) void this.#send([w]);
      } else {
        for (const w of part) w.reject(err);
      }
      return;
    }
    for (const [i, w] of part.entries()) {
      const output = outputs[i];
      if (output === undefined) w.reject(new Error(`a gathered call answered ${outputs.length} of ${part.length} inputs`));
      else w.resolve(output);
    }
  }
}

/** One `PerTurn` (or other per-database state) per store: a call gathers only what goes to the same database. */
export function perStore<T extends object>(make: (store: Store) => T): (store: Store) => T {
  const byStore = new WeakMap<Store, T>();
  return (store) => {
    let batches = byStore.get(store);
    if (batches === undefined) {
      batches = make(store);
      byStore.set(store, batches);
    }
    return batches;
  };
}
