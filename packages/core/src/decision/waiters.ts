import type { Sql, Store } from "../store/port.js";

/**
 * How often a process looks, in one query for all its waiters, whether another process
 * answered one of the asks they wait on (ADR 0079). 400 ms keeps the wake across
 * processes well under SPEC §32's second and a process's idle cost at 2.5 queries a
 * second, whatever the number of waiters; a process with no waiter does not look at all.
 */
export const DECISION_POLL_MS = 400;

type Wake = () => void;

/** The waiters of one store in this process, by artifact id, and its one shared poll. */
class WaiterRegistry {
  private readonly waiting = new Map<string, Set<Wake>>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  /** Polls sent, for the bench and tests: the idle cost a reader can count. */
  polls = 0;

  constructor(
    private readonly store: Store,
    private readonly pollMs: number,
  ) {}

  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  /** Resolves when `id` may have been answered or expired, or after `ms`; true when woken. */
  wait(id: string, ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const set = this.waiting.get(id) ?? new Set<Wake>();
      this.waiting.set(id, set);
      const finish = (woken: boolean) => {
        clearTimeout(timeout);
        signal?.removeEventListener("abort", aborted);
        set.delete(wake);
        if (set.size === 0 && this.waiting.get(id) === set) this.waiting.delete(id);
        if (this.waiting.size === 0) this.stop();
        resolve(woken);
      };
      const wake: Wake = () => finish(true);
      const aborted = () => finish(false);
      const timeout = setTimeout(() => finish(false), ms);
      set.add(wake);
      signal?.addEventListener("abort", aborted, { once: true });
      this.start();
    });
  }

  /** Wakes this process's waiters of `id` (a local answer, after its commit). */
  wake(id: string): void {
    for (const wake of [...(this.waiting.get(id) ?? [])]) wake();
  }

  private start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer === null) return;
    clearInterval(this.timer);
    this.timer = null;
  }

  /** One query for every waited id: those now answered or past their deadline. */
  private async poll(): Promise<void> {
    if (this.polling || this.waiting.size === 0) return;
    this.polling = true;
    try {
      this.polls++;
      for (const { id } of await settledAmong(this.store, [...this.waiting.keys()])) this.wake(id);
    } catch {
      // The database away: the waiters keep their own timeouts, and the next poll tries again.
    } finally {
      this.polling = false;
    }
  }
}

const settledAmong = (sql: Sql, ids: string[]) =>
  sql.query<{ id: string }>("select id from artifacts where id = any($1::text[]) and ask is not null and (decision is not null or answer_by <= now())", [ids]);

const registries = new WeakMap<Store, WaiterRegistry>();

/** This process's waiters on `store` (one registry, one poll, per store). */
export function decisionWaiters(store: Store, pollMs = DECISION_POLL_MS): WaiterRegistry {
  let registry = registries.get(store);
  if (!registry) {
    registry = new WaiterRegistry(store, pollMs);
    registries.set(store, registry);
  }
  return registry;
}

export type { WaiterRegistry };
