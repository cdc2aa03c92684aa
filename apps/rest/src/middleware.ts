import { randomUUID } from "node:crypto";
import type { Cairn } from "@cairn/core";
import type { MiddlewareHandler } from "hono";
import { loggablePath, type RestEnv } from "./adapter.js";
import { type OperationOfRoute, requestLabels } from "./metrics.js";

/** Every response carries the request id: the client's `X-Request-Id` (trimmed to 100 characters) or a new one. */
export function requestIds(cairn: Cairn, accessLog: boolean, operationOfRoute: OperationOfRoute = new Map()): MiddlewareHandler<RestEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = c.req.header("x-request-id")?.slice(0, 100) || randomUUID();
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    await next();
    if (accessLog) {
      const ms = Number((performance.now() - started).toFixed(1));
      const { operation, surface } = requestLabels(c, operationOfRoute);
      const client = c.get("clientAddress");
      cairn.log.info("request", { method: c.req.method, path: loggablePath(c.req.path), status: c.res.status, ms, requestId, operation, surface, client });
    }
  };
}

/**
 * `/v1/*` needs a valid bearer token, except the published schemas (a client validates
 * before it has one) and the routes of public operations (the signing keys).
 */
export function bearerAuth(cairn: Cairn, publicPaths: ReadonlySet<string> = new Set()): MiddlewareHandler<RestEnv> {
  return async (c, next) => {
    if (c.req.path.startsWith("/v1/schemas") || publicPaths.has(c.req.path)) return next();
    // Every authenticated route runs an operation, and core re-checks a cached caller before it (ADR 0027).
    c.set("principal", await cairn.authenticateHeader(c.req.header("authorization"), { cached: true }));
    return next();
  };
}
