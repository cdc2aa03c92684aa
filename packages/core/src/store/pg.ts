import pg from "pg";
import type { Sql, Store } from "./port.js";

// int8 (count(*), bigint) as a number so both drivers return the same JS types.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export async function openPgStore(connectionString: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client's error (server restart) must not crash the process.
  pool.on("error", (err) => console.error(`cairn: postgres pool error: ${err.message}`));
  await pool.query("select 1");

  const runner = (client: pg.Pool | pg.PoolClient, onCommit?: Array<() => void>): Sql => ({
    async query<T>(text: string, params: unknown[] = []) {
      const result = await client.query(text, params);
      return result.rows as T[];
    },
    afterCommit: (fn) => (onCommit ? onCommit.push(fn) : fn()),
  });

  return {
    driver: "pg",
    ...runner(pool),
    async transaction(fn) {
      const client = await pool.connect();
      const onCommit: Array<() => void> = [];
      try {
        await client.query("begin");
        const out = await fn(runner(client, onCommit));
        await client.query("commit");
        for (const f of onCommit) f();
        return out;
      } catch (err) {
        await client.query("rollback").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async exec(script) {
      await pool.query(script);
    },
    async close() {
      await pool.end();
    },
  };
}
