import {
  API_INFO,
  API_TAGS,
  apiContact,
  type Cairn,
  type CairnErrorCode,
  ERROR_CODES,
  ERROR_MEANINGS,
  ErrorEnvelope,
  OPERATION_HEADERS,
  type Operation,
  OwnerRef,
} from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { type RestEnv, statusOf } from "./adapter.js";
import { NDJSON } from "./ndjson.js";
import { openApiPath, pathParams, type RouteSpec } from "./routes.js";
import { SurfaceHeaders } from "./surface.js";

/** What reading a JSON body can answer besides the operation's own codes (see body.ts). */
const BODY_ERRORS: readonly CairnErrorCode[] = ["validation_failed", "payload_too_large", "unsupported_media_type"];

const readsBody = (route: RouteSpec) => route.input === "body" || route.input === "body+query" || route.input === "params+body";

/**
 * The documented error responses of a route: every code the operation declares plus what
 * this surface adds, each through the one statusOf, so documentation cannot drift from
 * the status a client gets. Codes that share a status share its entry.
 */
export function errorResponses(codes: readonly CairnErrorCode[]) {
  const byStatus = new Map<number, CairnErrorCode[]>();
  for (const code of ERROR_CODES.filter((c) => codes.includes(c))) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      status,
      {
        description: group.map((code) => `\`${code}\`: ${ERROR_MEANINGS[code]}`).join(" "),
        content: { "application/json": { schema: ErrorEnvelope } },
      },
    ]),
  );
}

/** The headers a route documents: the surface claim, and those the operation reads. */
function documentedHeaders(op: Operation) {
  const shape = Object.fromEntries(
    op.headers.map((name) => {
      const header = OPERATION_HEADERS[name];
      return [name.toLowerCase(), header.schema.optional().describe(header.description)] as const;
    }),
  );
  return SurfaceHeaders.extend(shape);
}

/** Input documented in OpenAPI; the core operation validates it, so REST and every other surface agree. */
function documentedRequest(op: Operation, route: RouteSpec) {
  const headers = documentedHeaders(op);
  const json = (schema: z.ZodType) => ({ required: true, content: { "application/json": { schema } } });
  switch (route.input) {
    case "body":
      return { headers, body: json(op.input) };
    case "body+query":
      return { headers, body: json(op.input), query: z.object({ owner: OwnerRef.optional() }) };
    case "query":
      return { headers, query: op.input as z.ZodObject };
    case "params":
      return { headers, params: op.input as z.ZodObject };
    case "params+body": {
      const inPath = Object.fromEntries(pathParams(route.path).map((p) => [p, true] as const)) as Record<string, true> & Record<number, never>;
      const object = op.input as z.ZodObject;
      return { headers, params: object.pick(inPath), body: json(object.omit(inPath)) };
    }
    case "params+query": {
      const inPath = Object.fromEntries(pathParams(route.path).map((p) => [p, true] as const)) as Record<string, true> & Record<number, never>;
      const object = op.input as z.ZodObject;
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

/** Registers one operation's route in the OpenAPI document. */
export function documentOperation(app: OpenAPIHono<RestEnv>, name: string, op: Operation, route: RouteSpec): void {
  const codes = readsBody(route) ? [...op.errors, ...BODY_ERRORS] : op.errors;
  app.openAPIRegistry.registerPath({
    method: route.method,
    path: openApiPath(route.path),
    operationId: name,
    summary: op.title,
    description: op.description,
    tags: [route.tag],
    security: op.runPublic ? [] : [{ bearer: [] }],
    request: documentedRequest(op, route),
    responses: { [route.status]: documentedResponse(op.output, route), ...errorResponses(codes) },
  });
}

type Json = Record<string, unknown>;

/**
 * The global `tags` list: every tag an operation uses, in API_TAGS order, each with the
 * description its area declares. A tag no area declares is still listed (so every
 * operation's tag resolves) but without a description, which the OpenAPI lint test
 * reports by name.
 */
export function documentTags(paths: Json): { name: string; description?: string }[] {
  const used = new Set<string>();
  for (const item of Object.values(paths) as Json[]) {
    for (const op of Object.values(item) as Json[]) for (const tag of (op.tags as string[] | undefined) ?? []) used.add(tag);
  }
  const declared = API_TAGS.filter((tag) => used.has(tag.name)).map(({ name, description }) => ({ name, description }));
  const undeclared = [...used].filter((name) => !API_TAGS.some((tag) => tag.name === name)).map((name) => ({ name }));
  return [...declared, ...undeclared];
}

/**
 * The whole OpenAPI 3.1 document, from what the routes registered and what core says of
 * the API: `servers` is the public URL (CAIRN_PUBLIC_URL, else where `cairn serve`
 * listens), the one base share links use too.
 */
export function openApiDocument(app: OpenAPIHono<RestEnv>, cairn: Cairn, version: string): Json {
  const publicUrl = cairn.config.publicUrl;
  const doc = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: API_INFO.title, version, description: API_INFO.description, license: { ...API_INFO.license }, contact: apiContact(publicUrl) },
    servers: [{ url: publicUrl, description: "This Cairn server." }],
  }) as unknown as Json;
  return { ...doc, tags: documentTags((doc.paths ?? {}) as Json) };
}
