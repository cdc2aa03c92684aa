import { type Cairn, OPERATIONS, operationNames, type PagedOperationName, pagesOf } from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { RestEnv } from "./adapter.js";
import { ndjsonResponse } from "./ndjson.js";
import { documentOperation } from "./openapi.js";
import { readInput, requestContext } from "./request.js";
import { routeOf } from "./routes.js";

/** One route per core operation, each documented and served the same way; none is special. */
export function mountOperationRoutes(app: OpenAPIHono<RestEnv>, cairn: Cairn): void {
  for (const name of operationNames()) {
    const op = OPERATIONS[name];
    const route = routeOf(name, op.mutates);
    documentOperation(app, name, op, route);
    if (op.runPublic) {
      // No principal: a public operation reads nothing of the caller's (keys_list).
      app.on(route.method.toUpperCase(), route.path, async (c) => c.json(await cairn.invokePublic(name), route.status));
      continue;
    }
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      const raw = await readInput(cairn, c, name, route);
      const ctx = requestContext(cairn, c, name);
      if (route.response === "ndjson") {
        // ROUTES only lets paged operations stream (see RouteOf).
        return ndjsonResponse(c, pagesOf(cairn, name as PagedOperationName, ctx, raw as Record<string, unknown>), cairn.log);
      }
      return c.json(await cairn.invoke(name, ctx, raw), route.status);
    });
  }
}
