import { randomUUID } from "node:crypto";
import {
  type Cairn,
  CairnError,
  ErrorEnvelope,
  IdempotencyKey,
  OPERATIONS,
  type OperationName,
  OwnerRef,
  operationNames,
  unauthenticated,
} from "@cairn/core";
import { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { bearerOf, errorResponse, type RestEnv } from "./adapter.js";
import { renderDocsPage } from "./docs.js";
import { readInput, requestContext } from "./request.js";
import { openApiPath, ROUTES } from "./routes.js";
import { mountSchemaRoutes } from "./schemas-routes.js";

export interface RestOptions {
  /** Version shown in the OpenAPI document. */
  version?: string;
  /** Log one line per request (method, path, status, time) to stdout. Never bodies or tokens. */
  accessLog?: boolean;
}

const errorResponses = {
  401: { description: "Missing or unknown bearer token.", content: { "application/json": { schema: ErrorEnvelope } } },
  403: { description: "Not allowed for this caller.", content: { "application/json": { schema: ErrorEnvelope } } },
  404: { description: "Not found, or not visible to this caller.", content: { "application/json": { schema: ErrorEnvelope } } },
  422: {
    description: "Input failed validation: the issues name each field, the reason and the limit. A refused receipt carries its drop receipt.",
    content: { "application/json": { schema: ErrorEnvelope } },
  },
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
function documentedRequest(input: z.ZodType, from: (typeof ROUTES)[OperationName]["input"]) {
  switch (from) {
    case "body":
      return { body: { required: true, content: { "application/json": { schema: input } } } };
    case "body+query":
      return {
        body: { required: true, content: { "application/json": { schema: input } } },
        query: z.object({ owner: OwnerRef.optional() }),
      };
    case "query":
      return { query: input as z.ZodObject };
    case "params":
      return { params: input as z.ZodObject };
    case "none":
      return undefined;
  }
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
      const ms = (performance.now() - started).toFixed(1);
      console.log(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms`);
    }
  });

  app.use("/v1/*", async (c, next) => {
    if (c.req.path.startsWith("/v1/schemas")) return next();
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
    const route = ROUTES[name];
    app.openAPIRegistry.registerPath({
      method: route.method,
      path: openApiPath(route.path),
      operationId: name,
      summary: op.description,
      tags: [route.tag],
      security: [{ bearer: [] }],
      request: {
        ...documentedRequest(op.input, route.input),
        ...(name === "receipt_create" && { headers: idempotencyHeader }),
      },
      responses: {
        [route.status]: { description: "OK", content: { "application/json": { schema: op.output } } },
        ...errorResponses,
        ...(name === "receipt_create" && receiptResponses),
      },
    });
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      const raw = await readInput(cairn, c, name, route);
      return c.json(await cairn.invoke(name, requestContext(cairn, c), raw), route.status);
    });
  }

  mountSchemaRoutes(app);

  app.get("/healthz", async (c) => {
    try {
      await cairn.store.query("select 1");
      return c.json({ status: "ok", database: "ok" });
    } catch {
      return c.json({ status: "fail", database: "unreachable" }, 503);
    }
  });

  const documentConfig = {
    openapi: "3.1.0",
    info: {
      title: "Cairn",
      version: options.version ?? "0.0.0",
      description: "Structured receipts from agents and scripts: what changed, who is affected, evidence, outcome, and what a human must do.",
    },
  };
  app.doc31("/openapi.json", documentConfig);
  app.get("/docs", (c) => {
    c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'");
    return c.html(renderDocsPage(app.getOpenAPI31Document(documentConfig) as unknown as Record<string, unknown>));
  });

  app.notFound((c) => errorResponse(c, new CairnError("not_found", `No route for ${c.req.method} ${c.req.path}.`)));
  app.onError((err, c) => errorResponse(c, err));
  return app;
}
