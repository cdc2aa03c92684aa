import { randomUUID } from "node:crypto";
import {
  type Cairn,
  CairnError,
  ErrorEnvelope,
  IdempotencyKey,
  OPERATIONS,
  OwnerRef,
  operationNames,
  type PagedOperationName,
  pagesOf,
  unauthenticated,
} from "@cairn/core";
import { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { bearerOf, errorResponse, loggablePath, type RestEnv } from "./adapter.js";
import { securityHeaders } from "@cairn/web/security-headers";
import { DOCS_CSP, renderDocsPage } from "./docs/index.js";
import { mountHealth } from "./health.js";
import { NDJSON, ndjsonResponse } from "./ndjson.js";
import { readInput, requestContext } from "./request.js";
import { openApiPath, pathParams, ROUTES, type RouteSpec } from "./routes.js";
import { mountSchemaRoutes } from "./schemas-routes.js";
import { SurfaceHeaders } from "./surface.js";

export interface RestOptions {
  /** Version shown in the OpenAPI document. */
  version?: string;
  /** Log one line per request (method, path, status, time) to stdout. Never bodies or tokens. */
  accessLog?: boolean;
  /**
   * Other web-standard handlers served by this app, by exact path (e.g. the MCP endpoint
   * at /mcp). They get the request id and access log, do their own auth, and keep their
   * protocol's dependencies out of this package.
   */
  mounts?: Record<string, (req: Request, requestId: string) => Response | Promise<Response>>;
}

const errorResponses = {
  401: { description: "Missing or unknown bearer token.", content: { "application/json": { schema: ErrorEnvelope } } },
  403: { description: "Not allowed for this caller.", content: { "application/json": { schema: ErrorEnvelope } } },
  404: { description: "Not found, or not visible to this caller.", content: { "application/json": { schema: ErrorEnvelope } } },
  422: {
    description: "Input failed validation: the issues name each field, the reason and the limit. A refused receipt carries its drop receipt.",
    content: { "application/json": { schema: ErrorEnvelope } },
  },
  503: {
    description: "The database is down or not answering (`unavailable`); retry after the Retry-After seconds.",
    content: { "application/json": { schema: ErrorEnvelope } },
  },
};

/** Only routes that read a JSON body can refuse one. */
const bodyResponses = {
  415: { description: "The body is not sent as application/json.", content: { "application/json": { schema: ErrorEnvelope } } },
};

const receiptResponses = {
  409: {
    description: "An identical receipt from the same owner was stored in the last 24 hours: `existing` names it; the drop is `duplicate`.",
    content: { "application/json": { schema: ErrorEnvelope } },
  },
};

const idempotencyHeader = z.object({
  "idempotency-key": IdempotencyKey.optional().describe(
    "Retry safely: the same key and body within 24 hours replays the first response (status and body); the same key with another body is 422 idempotency_mismatch. Scoped to your user.",
  ),
});

/** Input documented in OpenAPI; the core operation validates it, so REST and every other surface agree. */
function documentedRequest(input: z.ZodType, route: RouteSpec) {
  const headers = SurfaceHeaders;
  const json = (schema: z.ZodType) => ({ required: true, content: { "application/json": { schema } } });
  switch (route.input) {
    case "body":
      return { headers, body: json(input) };
    case "body+query":
      return { headers, body: json(input), query: z.object({ owner: OwnerRef.optional() }) };
    case "query":
      return { headers, query: input as z.ZodObject };
    case "params":
      return { headers, params: input as z.ZodObject };
    case "params+body": {
      const inPath = Object.fromEntries(pathParams(route.path).map((p) => [p, true] as const)) as Record<string, true> &
        Record<number, never>;
      const object = input as z.ZodObject;
      return { headers, params: object.pick(inPath), body: json(object.omit(inPath)) };
    }
    case "params+query": {
      const inPath = Object.fromEntries(pathParams(route.path).map((p) => [p, true] as const)) as Record<string, true> &
        Record<number, never>;
      const object = input as z.ZodObject;
      return { headers, params: object.pick(inPath), query: object.omit(inPath) };
    }
    case "none":
      return { headers };
  }
}

/** A streamed route documents the type of one line: the element of the page's `items`. */
function documentedResponse(output: z.ZodType, route: RouteSpec) {
  if (route.response !== "ndjson") return { description: "OK", content: { "application/json": { schema: output } } };
  const item = ((output as z.ZodObject).shape.items as z.ZodArray).element;
  return { description: "Every page, one JSON object per line (NDJSON), newest first.", content: { [NDJSON]: { schema: item } } };
}

export function createRestApp(cairn: Cairn, options: RestOptions = {}): OpenAPIHono<RestEnv> {
  const app = new OpenAPIHono<RestEnv>();

  app.use("*", async (c, next) => {
    const started = performance.now();
    const requestId = c.req.header("x-request-id")?.slice(0, 100) || randomUUID();
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    await next();
    if (options.accessLog) {
      const ms = Number((performance.now() - started).toFixed(1));
      cairn.log.info("request", { method: c.req.method, path: loggablePath(c.req.path), status: c.res.status, ms, requestId });
    }
  });

  const publicPaths = new Set(Object.values(ROUTES as Record<string, RouteSpec>).flatMap((r) => (r.public ? [r.path] : [])));
  app.use("/v1/*", async (c, next) => {
    if (c.req.path.startsWith("/v1/schemas") || publicPaths.has(c.req.path)) return next();
    const bearer = bearerOf(c.req.header("authorization"));
    const principal = bearer ? await cairn.authenticate(bearer) : null;
    if (!principal) throw unauthenticated(bearer ? "The bearer token is not valid." : "A bearer token is required.");
    c.set("principal", principal);
    return next();
  });

  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "A Cairn token (cairn_…). `cairn serve` writes the admin's to $CAIRN_HOME/credentials.",
  });

  for (const name of operationNames()) {
    const op = OPERATIONS[name];
    const route: RouteSpec = ROUTES[name];
    app.openAPIRegistry.registerPath({
      method: route.method,
      path: openApiPath(route.path),
      operationId: name,
      summary: op.description,
      tags: [route.tag],
      security: route.public ? [] : [{ bearer: [] }],
      request: {
        ...documentedRequest(op.input, route),
        ...(name === "receipt_create" && { headers: SurfaceHeaders.extend(idempotencyHeader.shape) }),
      },
      responses: {
        [route.status]: documentedResponse(op.output, route),
        ...errorResponses,
        ...(route.input.includes("body") && bodyResponses),
        ...(name === "receipt_create" && receiptResponses),
      },
    });
    if (route.public) {
      // No principal: a public route's operation reads nothing of the caller's (keys_list).
      app.on(route.method.toUpperCase(), route.path, async (c) => c.json(await cairn.invokePublic(name), route.status));
      continue;
    }
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      const raw = await readInput(cairn, c, name, route);
      const ctx = requestContext(cairn, c);
      if (route.response === "ndjson") {
        // ROUTES only lets paged operations stream (see RouteOf).
        return ndjsonResponse(c, pagesOf(cairn, name as PagedOperationName, ctx, raw as Record<string, unknown>), cairn.log);
      }
      return c.json(await cairn.invoke(name, ctx, raw), route.status);
    });
  }

  mountSchemaRoutes(app);
  for (const [path, handle] of Object.entries(options.mounts ?? {})) {
    app.all(path, async (c) => {
      const res = await handle(c.req.raw, c.get("requestId"));
      res.headers.set("X-Request-Id", c.get("requestId"));
      return res;
    });
  }

  mountHealth(app, cairn);

  const documentConfig = {
    openapi: "3.1.0",
    info: {
      title: "Cairn",
      version: options.version ?? "0.0.0",
      description: "Structured receipts from agents and scripts: what changed, who is affected, evidence, outcome, and what a human must do.",
    },
  };
  app.doc31("/openapi.json", documentConfig);
  app.get("/docs", securityHeaders({ csp: DOCS_CSP }), (c) => {
    return c.html(renderDocsPage(app.getOpenAPI31Document(documentConfig) as unknown as Record<string, unknown>));
  });

  app.notFound((c) => errorResponse(c, new CairnError("not_found", `No route for ${c.req.method} ${c.req.path}.`), cairn.log));
  app.onError((err, c) => errorResponse(c, err, cairn.log));
  return app;
}
