import pg from "pg";
import type { DatabaseHost, DatabaseTarget, TargetSessionAttrs } from "./database-url.js";

/**
 * libpq's host selection over node-postgres pools: the hosts are tried in order, each
 * connection is asked what it is (`pg_is_in_recovery()`, and `transaction_read_only` —
 * what libpq's `show transaction_read_only` reads), and the first that fits
 * `target_session_attrs` serves. `prefer-standby` is two passes: a standby, else any.
 * After a failover the chosen host stops fitting (its connections break, or it answers
 * read-only, 25006): the store tells the pool, which chooses again, once for everyone
 * waiting (ADR 0085).
 */

interface Role {
  inRecovery: boolean;
  readOnly: boolean;
}

const ROLE_QUERY = "select pg_is_in_recovery() as in_recovery, current_setting('transaction_read_only') as read_only";

export function fits(attrs: TargetSessionAttrs, role: Role): boolean {
  switch (attrs) {
    case "any":
      return true;
    case "read-write":
      return !role.readOnly;
    case "read-only":
      return role.readOnly;
    case "primary":
      return !role.inRecovery;
    case "standby":
    case "prefer-standby":
      return role.inRecovery;
  }
}

async function roleOf(client: pg.Client): Promise<Role> {
  const { rows } = await client.query<{ in_recovery: boolean; read_only: string }>(ROLE_QUERY);
  return { inRecovery: rows[0]?.in_recovery === true, readOnly: rows[0]?.read_only === "on" };
}

/** No listed host fits: a 503 like a database that is down (`08000` is in the unavailable class). */
export class NoHostFitsError extends Error {
  readonly code = "08000";
  constructor(attrs: TargetSessionAttrs, tried: number, last: unknown) {
    super(`no host fits target_session_attrs=${attrs} (${tried} tried)`);
    this.name = "NoHostFitsError";
    (this as { cause?: unknown }).cause = last;
  }
}

interface Chosen {
  host: DatabaseHost;
  pool: pg.Pool;
}

export interface HostPoolOptions {
  target: DatabaseTarget;
  /** Opens node-postgres's pool for one host's URL (with the store's listeners and timeouts). */
  poolFor(url: string, verify: (client: pg.Client) => Promise<void>): pg.Pool;
  connectMs: number;
  onChosen?(host: DatabaseHost): void;
}

export class HostPool {
  private chosen: Chosen | undefined;
  private choosing: Promise<Chosen> | undefined;
  private readonly owner = new WeakMap<pg.PoolClient, Chosen>();
  private ended = false;

  constructor(private readonly options: HostPoolOptions) {}

  /** The host serving now, if one is chosen. */
  current(): DatabaseHost | undefined {
    return this.chosen?.host;
  }

  /** The chosen host's node-postgres pool, for its counts (metrics); none before a host is chosen. */
  currentPool(): pg.Pool | undefined {
    return this.chosen?.pool;
  }

  async query<R extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>> {
    const chosen = await this.choose();
    try {
      return await chosen.pool.query<R>(text, params);
    } catch (err) {
      this.lost(chosen, err);
      throw err;
    }
  }

  async connect(): Promise<pg.PoolClient> {
    const chosen = await this.choose();
    try {
      const client = await chosen.pool.connect();
      this.owner.set(client, chosen);
      return client;
    } catch (err) {
      this.lost(chosen, err);
      throw err;
    }
  }

  /** A statement on a client of this pool failed with err: choose again if it says the host no longer fits. */
  faulted(client: pg.PoolClient, err: unknown): void {
    const chosen = this.owner.get(client);
    if (chosen) this.lost(chosen, err);
  }

  async end(): Promise<void> {
    this.ended = true;
    const chosen = this.chosen ?? (await this.choosing?.catch(() => undefined));
    this.chosen = undefined;
    await chosen?.pool.end();
  }

  private lost(chosen: Chosen, err: unknown): void {
    // Only the pool that failed is dropped: a late error from the one before never undoes a newer choice.
    if (this.chosen !== chosen || !hostNoLongerFits(err)) return;
    this.chosen = undefined;
    // Clients in use finish (and are closed on release); the idle ones close now.
    chosen.pool.end().catch(() => {});
  }

  private choose(): Promise<Chosen> {
    if (this.ended) return Promise.reject(new Error("Cannot use a pool after calling end"));
    if (this.chosen) return Promise.resolve(this.chosen);
    this.choosing ??= this.search().finally(() => {
      this.choosing = undefined;
    });
    return this.choosing;
  }

  private async search(): Promise<Chosen> {
    const { target } = this.options;
    const attrs = target.targetSessionAttrs;
    const passes: TargetSessionAttrs[] = attrs === "prefer-standby" ? ["standby", "any"] : [attrs];
    let last: unknown;
    for (const pass of passes) {
      for (const host of target.hosts) {
        try {
          if (!(await this.probe(host, pass))) continue;
        } catch (err) {
          last = err;
          continue;
        }
        const url = target.urlFor(host);
        // Every further connection is asked again, as libpq asks each one: a host demoted since is refused.
        const pool = this.options.poolFor(url, async (client) => {
          if (!fits(pass, await roleOf(client))) throw Object.assign(new Error("host no longer fits target_session_attrs"), { code: "25006" });
        });
        const chosen = { host, pool };
        if (this.ended) {
          await pool.end();
          throw new Error("Cannot use a pool after calling end");
        }
        this.chosen = chosen;
        this.options.onChosen?.(host);
        return chosen;
      }
    }
    throw new NoHostFitsError(attrs, target.hosts.length, last);
  }

  private async probe(host: DatabaseHost, attrs: TargetSessionAttrs): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.options.target.urlFor(host), connectionTimeoutMillis: this.options.connectMs });
    client.on("error", () => {});
    try {
      await client.connect();
      return fits(attrs, await roleOf(client));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

// A lost or refused connection, a server shutting down (57P01 a failover or fast stop,
// 57P02 a crash, 57P03 starting up), a read-only answer (25006: the host was demoted),
// or every host refused: the host no longer serves as chosen. A statement timeout (57014)
// or a full pool says nothing about the host.
const HOST_LOST_SQLSTATE = /^(08...|57P0[123]|25006)$/;
const HOST_LOST_ERRNO = new Set(["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
const HOST_LOST_MESSAGE = /Connection terminated|Client has encountered a connection error|Connection ended|not queryable/i;

export function hostNoLongerFits(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === "string" && (HOST_LOST_SQLSTATE.test(e.code) || HOST_LOST_ERRNO.has(e.code))) return true;
  if (typeof e.message === "string" && HOST_LOST_MESSAGE.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== err && hostNoLongerFits(e.cause);
}
