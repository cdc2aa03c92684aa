import { CairnError, isRegisteredSchema, jsonSchemaOf, registeredSchemaIds, SCHEMA_TAG } from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { RestEnv } from "./adapter.js";
import { errorResponses } from "./openapi.js";

/** Published JSON Schemas: public, so a client can validate before it has a token. */
export function mountSchemaRoutes(app: OpenAPIHono<RestEnv>): void {
  app.openAPIRegistry.registerPath({
    method: "get",
    path: "/v1/schemas/{schema}",
    operationId: "schema_read",
    summary: "Read a published JSON Schema",
    description: "The JSON Schema (2020-12) of a registered schema id, e.g. cairn.receipt/v1. Public: no token needed.",
    tags: [SCHEMA_TAG.name],
    security: [],
    request: {
      params: z.object({ schema: z.string().describe(`A registered schema id: ${registeredSchemaIds().join(", ")}.`) }),
    },
    responses: {
      200: { description: "OK", content: { "application/schema+json": { schema: z.record(z.string(), z.unknown()) } } },
      ...errorResponses(["not_found", "internal"]),
    },
  });
  app.get("/v1/schemas", (c) => c.json({ items: registeredSchemaIds().map((id) => ({ id, url: `/v1/schemas/${id}` })) }));
  app.get("/v1/schemas/:schema{.+}", (c) => {
    const id = c.req.param("schema");
    if (!isRegisteredSchema(id)) throw new CairnError("not_found", `No schema named ${id}.`);
    c.header("Content-Type", "application/schema+json");
    return c.body(JSON.stringify(jsonSchemaOf(id)));
  });
}
