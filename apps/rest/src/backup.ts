import type { Cairn } from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { RestEnv } from "./adapter.js";

/** `GET /admin/backup`: the embedded store's consistent copy, streamed to an administrator's `cairn backup` (ADR 0082). */
export function mountBackup(app: OpenAPIHono<RestEnv>, cairn: Cairn): void {
  app.get("/admin/backup", async (c) => {
    const dump = await cairn.dumpDataDir(c.req.header("authorization"));
    return new Response(dump.stream(), {
      headers: { "Content-Type": "application/gzip", "Content-Length": String(dump.size), "Cache-Control": "no-store" },
    });
  });
}
