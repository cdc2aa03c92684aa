// The share-page baseline: a bare handler returning the same bytes and headers Cairn sent. argv: <file with {body, type}>
import { readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const page = JSON.parse(readFileSync(process.argv[2], "utf8"));
const app = new Hono().get("/s/:token", (c) => c.body(page.body, 200, { "content-type": page.type }));
serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`));
process.on("SIGTERM", () => process.exit(0));
