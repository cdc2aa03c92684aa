import { type Cairn, CairnError, clientAbortResponse, isClientAbort, OAUTH_LIMITS, OAUTH_PATHS, type OAuthCaller, OAuthError } from "@cairn/core";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { loggablePath, type RestEnv } from "./adapter.js";
import { readBoundedBody } from "./body.js";

/**
 * Cairn as the OAuth 2.1 authorization server of /mcp (SPEC §26, ADR 0053): the metadata
 * documents and the endpoints a client calls without a browser. Protocol endpoints, not
 * operations: their shapes are OAuth's (`{error, error_description}`), fixed by RFCs, and
 * no other surface has them. The authorize endpoint and consent page are the web's.
 */

const tooLarge = () => new OAuthError("invalid_request", `The request body is larger than ${OAUTH_LIMITS.bodyBytes} bytes.`);

/** The body's text, at most OAUTH_LIMITS.bodyBytes, of the one content type the endpoint takes. */
async function bodyText(c: Context, type: "application/x-www-form-urlencoded" | "application/json"): Promise<string> {
  const sent = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (sent !== type) throw new OAuthError("invalid_request", `The body must be ${type}.`);
  const bytes = await readBoundedBody(c, OAUTH_LIMITS.bodyBytes, tooLarge);
  return bytes ? new TextDecoder("utf-8").decode(bytes) : "";
}

/** The network peer, as node-server hands it over; an in-process request (`app.request`) has none. */
export function callerOf(c: Context): OAuthCaller {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming ? { address: incoming.socket?.remoteAddress ?? "unknown" } : {};
}

const form = async (c: Context) => new URLSearchParams(await bodyText(c, "application/x-www-form-urlencoded"));

/** OAuth answers are never cached (RFC 6749 §5.1), and any origin may call them: no cookie is involved (CORS for browser clients). */
function oauthHeaders(c: Context): void {
  c.header("Cache-Control", "no-store");
  c.header("Pragma", "no-cache");
  c.header("Access-Control-Allow-Origin", "*");
}

/** Runs an endpoint: OAuth's error shape for refusals, `server_error` (logged, never echoed) for anything else. */
function endpoint(cairn: Cairn, run: (c: Context<RestEnv>) => Promise<Response>) {
  return async (c: Context<RestEnv>) => {
    oauthHeaders(c);
    try {
      return await run(c);
    } catch (err) {
      if (err instanceof OAuthError) {
        if (err.status === 401) c.header("WWW-Authenticate", 'Bearer realm="cairn"');
        if (err.retryAfterSeconds !== undefined) c.header("Retry-After", String(err.retryAfterSeconds));
        return c.json(err.toBody(), err.status);
      }
      const requestId = c.get("requestId");
      if (isClientAbort(err, c.req.raw.signal))
        return clientAbortResponse(cairn.log, { surface: "rest", method: c.req.method, path: loggablePath(c.req.path), requestId });
      if (err instanceof CairnError && err.code === "unavailable") {
        c.header("Retry-After", "1");
        return c.json({ error: "temporarily_unavailable", error_description: "The database is not answering; try again shortly." }, 503);
      }
      cairn.log.error({ code: "internal", requestId, surface: "rest", method: c.req.method }, err);
      return c.json({ error: "server_error", error_description: `Something went wrong on the server (request ${requestId}).` }, 500);
    }
  };
}

export function mountOAuthRoutes(app: OpenAPIHono<RestEnv>, cairn: Cairn): void {
  const metadata = (document: () => object) => (c: Context<RestEnv>) => {
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Cache-Control", "public, max-age=3600");
    return c.json(document());
  };
  app.get(
    OAUTH_PATHS.resourceMetadata,
    metadata(() => cairn.oauth.protectedResourceMetadata()),
  );
  app.get(
    `${OAUTH_PATHS.resourceMetadata}/mcp`,
    metadata(() => cairn.oauth.protectedResourceMetadata()),
  );
  app.get(
    OAUTH_PATHS.serverMetadata,
    metadata(() => cairn.oauth.authorizationServerMetadata()),
  );

  for (const path of [OAUTH_PATHS.token, OAUTH_PATHS.register, OAUTH_PATHS.revoke]) {
    app.options(path, (c) => {
      c.header("Access-Control-Allow-Origin", "*");
      c.header("Access-Control-Allow-Methods", "POST");
      c.header("Access-Control-Allow-Headers", "content-type, authorization, mcp-protocol-version");
      c.header("Access-Control-Max-Age", "3600");
      return c.body(null, 204);
    });
  }

  app.post(
    OAUTH_PATHS.register,
    endpoint(cairn, async (c) => {
      const text = await bodyText(c, "application/json").catch((err: unknown) => {
        throw err instanceof OAuthError ? new OAuthError("invalid_client_metadata", err.description) : err;
      });
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new OAuthError("invalid_client_metadata", "The registration is not valid JSON.");
      }
      return c.json(await cairn.oauth.register(body, callerOf(c)), 201);
    }),
  );

  app.post(
    OAUTH_PATHS.token,
    endpoint(cairn, async (c) => c.json(await cairn.oauth.token(await form(c), callerOf(c)))),
  );

  app.post(
    OAUTH_PATHS.revoke,
    endpoint(cairn, async (c) => {
      await cairn.oauth.revoke(await form(c));
      return c.body(null, 200);
    }),
  );
}
