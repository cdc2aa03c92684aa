// The ceiling of the traces row: a bare hono server, its own process, that reads each
// OTLP/HTTP protobuf request and decodes it with protobufjs and the same .proto files,
// then answers an empty ExportTraceServiceResponse. Nothing is stored.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { otlpTypes } from "./otlp-body.mjs";

const types = otlpTypes();
const empty = types.response.encode(types.response.fromObject({})).finish();
const app = new Hono().post("/v1/traces", async (c) => {
  const request = types.request.decode(new Uint8Array(await c.req.arrayBuffer()));
  // Every span is reached, as a receiver must, and counted in a header.
  let spans = 0;
  for (const rs of request.resourceSpans) for (const ss of rs.scopeSpans) spans += ss.spans.length;
  return c.body(empty, 200, { "content-type": "application/x-protobuf", "x-spans": String(spans) });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
