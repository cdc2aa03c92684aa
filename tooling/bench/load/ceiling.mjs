// The ceiling of one Node process: a bare hono server that parses the same JSON body and
// inserts it as one row on the same store as Cairn, nothing else. Started as its own process.
// argv: pg <databaseUrl> | pglite <dataDir>
import { openStore } from "@cairn/core";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const [driver, where] = process.argv.slice(2);
const store = await openStore(driver === "pg" ? { databaseUrl: where } : { dataDir: where });
await store.query("create table if not exists bench_ceiling (id text primary key, owner text, body jsonb, created_at timestamptz)");
let n = 0;
const app = new Hono().post("/v1/receipts", async (c) => {
  const body = await c.req.json();
  const id = `c_${process.pid}_${n++}`;
  await store.query("insert into bench_ceiling (id, owner, body, created_at) values ($1, $2, $3::jsonb, now())", [id, "user:bench", JSON.stringify(body)]);
  return c.json({ id }, 201);
});
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`));
process.on("SIGTERM", () => server.close(() => store.close().then(() => process.exit(0))));
