import { type Cairn, CairnError, OTLP_LIMITS, otlpFailure, otlpTooLarge, receiveTraces, toCairnError, UNAVAILABLE_RETRY_AFTER_SECONDS } from "@cairn/core";
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { errorResponse, type RestEnv, statusOf } from "./adapter.js";
import { readBoundedBody } from "./body.js";
import { surfaceOf } from "./surface.js";

/** OTLP/HTTP answers a malformed request with 400, where the rest of /v1 says 422. */
const otlpStatus = (code: string) => (code === "ok" ? 200 : code === "validation_failed" ? 400 : statusOf(code as CairnError["code"]));

/**
 * `POST /v1/traces`: OTLP/HTTP (SPEC §21). Its content types, status codes and bodies are
 * OTLP's, decided in core; this reads the bytes (never more than the limit, before any
 * inflation) and sends what core answers.
 */
export function mountOtlpRoutes(app: OpenAPIHono<RestEnv>, cairn: Cairn): void {
  documentTraces(app);
  app.post("/v1/traces", async (c: Context<RestEnv>) => {
    const contentType = c.req.header("content-type");
    let reply: Awaited<ReturnType<typeof receiveTraces>>;
    try {
      const body = (await readBoundedBody(c, OTLP_LIMITS.requestBytes, otlpTooLarge)) ?? new Uint8Array();
      const ctx = cairn.context(c.get("principal"), surfaceOf(c.req.header("x-cairn-surface")), { requestId: c.get("requestId") });
      reply = await receiveTraces(ctx, { body, contentType, contentEncoding: c.req.header("content-encoding") });
    } catch (err) {
      if (err instanceof CairnError && err.code !== "internal" && err.code !== "unavailable") reply = otlpFailure(contentType, err);
      else {
        // Logged as for every route; the client gets OTLP's Status with no details.
        errorResponse(c, err, cairn.log);
        reply = otlpFailure(contentType, toCairnError(err));
      }
    }
    if (reply.code === "unavailable") c.header("Retry-After", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return c.body(reply.body as Uint8Array<ArrayBuffer>, otlpStatus(reply.code), { "Content-Type": reply.contentType });
  });
}

const PROTOBUF = z.string().meta({ format: "binary" });
const STATUS = z
  .looseObject({ code: z.number().int(), message: z.string() })
  .describe("google.rpc.Status; the JSON one also carries Cairn's `error` envelope.");
const otlpBody = (description: string, json: z.ZodType) => ({
  description,
  content: { "application/x-protobuf": { schema: PROTOBUF }, "application/json": { schema: json } },
});

/** The route in the OpenAPI document: OTLP's own types and answers (docs/adr/0034). */
function documentTraces(app: OpenAPIHono<RestEnv>): void {
  app.openAPIRegistry.registerPath({
    method: "post",
    path: "/v1/traces",
    operationId: "traces_export",
    summary: "Send OpenTelemetry traces (OTLP/HTTP)",
    description: `An OTLP ExportTraceServiceRequest as protobuf or JSON, gzip or not (Content-Encoding: gzip); at most ${OTLP_LIMITS.requestBytes} bytes after decompression and ${OTLP_LIMITS.spansPerRequest} spans. Each trace id becomes one run of yours (or of the team a resource attribute cairn.owner names), named by the root span's gen_ai.agent.name, service.name or name; spans already stored are not stored again. Point the stock OTLP/HTTP exporters here with an Authorization header.`,
    tags: ["Runs"],
    security: [{ bearer: [] }],
    request: { body: { required: true, ...otlpBody("ExportTraceServiceRequest", z.looseObject({ resourceSpans: z.array(z.unknown()).optional() })) } },
    responses: {
      200: otlpBody(
        "ExportTraceServiceResponse: partialSuccess names refused spans and any value that was changed.",
        z.looseObject({ partialSuccess: z.looseObject({ rejectedSpans: z.string().optional(), errorMessage: z.string().optional() }).optional() }),
      ),
      400: otlpBody("Not an ExportTraceServiceRequest (or not valid gzip).", STATUS),
      401: { description: "No valid bearer token (Cairn's error envelope)." },
      403: otlpBody("The token may not write runs.", STATUS),
      413: otlpBody("Larger than the limit after decompression, or too many spans.", STATUS),
      415: otlpBody("Neither application/x-protobuf nor application/json, or an encoding other than gzip.", STATUS),
      503: otlpBody("The database is unreachable; retry later.", STATUS),
    },
  });
}
