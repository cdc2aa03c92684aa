import { CairnError, isRegisteredSchema, jsonSchemaOf, registeredSchemaIds } from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { RestEnv } from "./adapter.js";

/** Published JSON Schemas: public, so a client can validate before it has a token. */
export function mountSchemaRoutes(app: OpenAPIHono<RestEnv>): void {
  app.get("/v1/schemas", (c) => c.json({ items: registeredSchemaIds().map((id) => ({ id, url: `/v1/schemas/${id}` })) }));
  app.get("/v1/schemas/:schema{.+}", (c) => {
    const id = c.req.param("schema");
    if (!isRegisteredSchema(id)) throw new CairnError("not_found", `No schema named ${id}.`);
    c.header("Content-Type", "application/schema+json");
    return c.body(JSON.stringify(jsonSchemaOf(id)));
  });
}
