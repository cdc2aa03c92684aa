import type { Cairn } from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { RestEnv } from "./adapter.js";

/** How long /healthz waits for the database before it says it is unreachable. */
const HEALTH_WAIT_MS = 2_000;

/**
 * `GET /healthz`: liveness (the process answers; restart it when it does not) with the
 * database's state as information, answered within HEALTH_WAIT_MS whatever the database
 * does. `GET /readyz`: readiness (send traffic here or not): 503 while the database does
 * not answer within a second or migrations have not run (SPEC §39).
 */
export function mountHealth(app: OpenAPIHono<RestEnv>, cairn: Cairn): void {
  app.get("/readyz", async (c) => {
    const readiness = await cairn.checkReadiness();
    c.header("Cache-Control", "no-store");
    if (readiness.ready) return c.json({ status: "ready" });
    c.header("Retry-After", "1");
    return c.json({ status: "not_ready", reason: readiness.reason, message: readiness.message }, 503);
  });
  app.get("/healthz", async (c) => {
    // A probe must answer even when the database does not: it gives up after HEALTH_WAIT_MS.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), HEALTH_WAIT_MS);
    });
    try {
      const answer = await Promise.race([cairn.checkDatabase(), late]);
      if (answer === true) return c.json({ status: "ok", database: "ok" });
    } catch {
      // reported below, as a late answer is
    } finally {
      clearTimeout(timer);
    }
    return c.json(
      { status: "fail", database: "unreachable", message: "The database is down or not answering; every route answers 503 unavailable until it is back." },
      503,
    );
  });
}
