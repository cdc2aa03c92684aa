import { type Cairn, CairnError, OTLP_LIMITS, otlpFailure, otlpTooLarge, receiveTraces, toCairnError } from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { errorResponse, type RestEnv, statusOf } from "./adapter.js";
import { readCountedBody } from "./body.js";
import { surfaceOf } from "./surface.js";

/** OTLP/HTTP answers a malformed request with 400, where the rest of /v1 says 422. */
const otlpStatus = (code: string) => (code === "ok" ? 200 : code === "validation_failed" ? 400 : statusOf(code as CairnError["code"]));

/**
 * `POST /v1/traces`: OTLP/HTTP (SPEC §21). Its content types, status codes and bodies are
 * OTLP's, decided in core; this reads the bytes (never more than the limit, before any
 * inflation) and sends what core answers.
 */
export function mountOtlpRoutes(app: OpenAPIHono<RestEnv>, cairn: Cairn): void {
  app.post("/v1/traces", async (c: Context<RestEnv>) => {
    const contentType = c.req.header("content-type");
    let reply: Awaited<ReturnType<typeof receiveTraces>>;
    try {
      if (Number(c.req.header("content-length") ?? "0") > OTLP_LIMITS.requestBytes) throw otlpTooLarge();
      const body = (await readCountedBody(c.req.raw.body, OTLP_LIMITS.requestBytes, otlpTooLarge)) ?? new Uint8Array();
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
    if (reply.code === "unavailable") c.header("Retry-After", "5");
    return c.body(reply.body as Uint8Array<ArrayBuffer>, otlpStatus(reply.code), { "Content-Type": reply.contentType });
  });
}
