import { type ProxyTrust, resolveForwarded } from "@cairn/core";
import type { MiddlewareHandler } from "hono";
import type { RestEnv } from "./adapter.js";

const peerOf = (env: unknown): string | undefined =>
  (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;

/**
 * CAIRN_TRUST_PROXY (SPEC §39): before any route runs, X-Forwarded-For and
 * X-Forwarded-Proto are replaced by what they mean — the client's address (for logs and
 * rate limits, as `clientAddress`) and the protocol a trusted proxy saw — or removed
 * when the peer is not a proxy the operator named. So every route that reads
 * `X-Forwarded-Proto` (the web's Secure cookies) reads only what a trusted proxy said.
 */
export function forwardedHeaders(trust: ProxyTrust | undefined): MiddlewareHandler<RestEnv> {
  return async (c, next) => {
    const headers = c.req.raw.headers;
    const { client, proto } = resolveForwarded(
      trust,
      peerOf(c.env),
      headers.get("x-forwarded-for") ?? undefined,
      headers.get("x-forwarded-proto") ?? undefined,
    );
    headers.delete("x-forwarded-for");
    headers.delete("x-forwarded-proto");
    if (proto) headers.set("x-forwarded-proto", proto);
    if (client) c.set("clientAddress", client);
    await next();
  };
}
