import pg from "pg";

type ConnectCallback = ((err: Error) => void) | ((err: null, c: pg.Client) => void);

/**
 * A node-postgres client that asks `verify` about each new connection before the pool hands
 * it out, as libpq checks every connection against `target_session_attrs`. A connection
 * that fails the check is closed and its `connect` fails, so the pool never serves it.
 */
export function verifiedClient(verify: (client: pg.Client) => Promise<void>): typeof pg.Client {
  class VerifiedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // The check is a query before the pool's 'connect' event attaches the store's listener (ADR 0042):
      // a connection lost during it would emit 'error' to nobody and end the process. Its connect fails instead.
      this.on("error", () => {});
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ConnectCallback): void;
    // node-postgres's pool calls connect with a callback; everything else awaits it.
    override connect(callback?: ConnectCallback): Promise<pg.Client> | undefined {
      const done = super.connect().then(async (client) => {
        try {
          await verify(client);
          return client;
        } catch (err) {
          await client.end().catch(() => {});
          throw err;
        }
      });
      if (!callback) return done;
      done.then(
        (client) => (callback as (err: null, c: pg.Client) => void)(null, client),
        (err: Error) => (callback as (err: Error) => void)(err),
      );
      return undefined;
    }
  }
  return VerifiedClient;
}
