/**
 * A map that keeps at most `capacity` entries, forgetting the least recently used: what a
 * process may remember of the database without growing with the number of callers.
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();
  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  /** Forgets every entry whose value matches (a rare path: a few hundred entries at most). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, value] of this.#entries) if (matches(value)) this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
