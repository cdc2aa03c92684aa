import { type Cairn, processMetrics } from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { RestEnv } from "./adapter.js";

/** Paths of the operator's own, answered for probes and scrapers rather than a person or an agent. */
const INFRASTRUCTURE = /^\/(healthz|readyz|metrics|openapi\.json|docs|\.well-known\/|oauth\/)/;

/**
 * The route a request matched, as registered (`/s/:token`, never the token): a closed
 * set fixed by the code. Middleware (`*`, `/v1/*`) does not count (a mounted app's routes
 * look like middleware to hono, so the path decides, not the handler); a request no route
 * took is `unmatched`, so a scanner's random paths make one series, not thousands.
 */
function routeOf(c: Context): string | undefined {
  return matchedRoutes(c)
    .filter((r) => !r.path.endsWith("*"))
    .at(-1)?.path;
}

function surfaceOf(c: Context, route: string | undefined): string {
  if (route === "/mcp") return "mcp";
  if (route?.startsWith("/v1/")) return c.req.header("x-cairn-surface")?.trim().toLowerCase() === "cli" ? "cli" : "rest";
  if (route === undefined || INFRASTRUCTURE.test(route)) return "http";
  return "web";
}

/**
 * Feeds `cairn_requests_total` and `cairn_request_duration_seconds`: one sample per HTTP
 * request, labelled by the operation its route runs (`operationOfRoute`, filled as routes
 * mount) or else the route pattern, the surface and the status.
 */
export function recordRequests(operationOfRoute: OperationOfRoute): MiddlewareHandler<RestEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      processMetrics.request({ ...requestLabels(c, operationOfRoute), status: c.res.status, seconds: (performance.now() - started) / 1000 });
    }
  };
}

/** `METHOD /route/:pattern` → the operation that route runs. */
export type OperationOfRoute = ReadonlyMap<string, string>;

/** What a finished request was, in closed sets: the operation (or route pattern, or `unmatched`) and the surface. Metrics and the access log share it. */
export function requestLabels(c: Context, operationOfRoute: OperationOfRoute): { operation: string; surface: string } {
  const route = routeOf(c);
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  const operation = (route && operationOfRoute.get(`${method} ${route}`)) ?? route ?? "unmatched";
  return { operation, surface: surfaceOf(c, route) };
}

/** `GET /metrics` on the main port: an administrator's token or CAIRN_METRICS_TOKEN (SPEC §39, ADR 0082). */
export function mountMetrics(app: OpenAPIHono<RestEnv>, cairn: Cairn): void {
  app.get("/metrics", async (c) => {
    await cairn.metrics.authorize(c.req.header("authorization"));
    return metricsResponse(cairn);
  });
}

/** The exposition itself, for the main port's route and for the token-free listener of CAIRN_METRICS_PORT. */
export async function metricsResponse(cairn: Cairn): Promise<Response> {
  const { contentType, body } = await cairn.metrics.render();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
