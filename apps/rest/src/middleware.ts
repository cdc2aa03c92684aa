import { randomUUID } from "node:crypto";
import type { Cairn } from "@cairn/core";
import type { MiddlewareHandler } from "hono";
import type { RestEnv } from "./adapter.js";

/** Every response carries the request id: the client's `X-Request-Id` (trimmed to 100 characters) or a new one. */
export function requestIds(accessLog: boolean): MiddlewareHandler<RestEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = c.req.header("x-request-id")?.slice(0, 100) || randomUUID();
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    await next();
    if (accessLog) {
      const ms = (performance.now() - started).toFixed(1);
      console.log(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms`);
    }
  };
}

/** `/v1/*` needs a valid bearer token, except the published schemas (a client validates before it has one). */
export function bearerAuth(cairn: Cairn): MiddlewareHandler<RestEnv> {
  return async (c, next) => {
    if (c.req.path.startsWith("/v1/schemas")) return next();
    c.set("principal", await cairn.authenticateHeader(c.req.header("authorization")));
    return next();
  };
}
