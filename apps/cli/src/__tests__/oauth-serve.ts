import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveSettings } from "@cairn/core/local";
import { createTestHome, type Driver } from "@cairn/core/testing";
import { type RunningServer, startServer } from "../server.js";

/** A real `cairn serve` in this process on a free loopback port, with a clock the test moves instead of sleeping. */
export async function startOAuthServe(driver: Driver, env: Record<string, string> = {}) {
  const home = await createTestHome(driver);
  let offset = 0;
  const server: RunningServer = await startServer(resolveSettings({ ...home.env, PORT: "0", HOST: "127.0.0.1", ...env }), { info: () => {} }, "oauth-test", {
    now: () => new Date(Date.now() + offset),
  });
  const admin = (JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")) as { token: string }).token;
  return {
    server,
    base: server.url,
    admin,
    advance(seconds: number) {
      offset += seconds * 1000;
    },
    async close() {
      await server.close();
      await home.dispose();
    },
  };
}
export type OAuthServe = Awaited<ReturnType<typeof startOAuthServe>>;

/** An authorization request's query for a client, PKCE S256. */
export function authorizeQuery(base: string, clientId: string, redirectUri: string, challenge = "c".repeat(43)): URLSearchParams {
  return new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "s",
    resource: `${base}/mcp`,
  });
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: Record<string, string>;
}

export async function postForm(url: string, fields: Record<string, string>): Promise<JsonAnswer> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
}

export async function registerOver(base: string, redirect: string, name = "Host"): Promise<JsonAnswer> {
  const res = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: name, redirect_uris: [redirect] }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
}

/**
 * A grant as a person makes it: the server's own authorization check and the admin's
 * consent (what the web's Allow button calls), then the code exchanged over HTTP.
 */
export async function grantOver(serve: OAuthServe, clientId: string, redirect: string) {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const check = await serve.server.cairn.oauth.checkAuthorize(authorizeQuery(serve.base, clientId, redirect, challenge));
  if (!check.ok) throw check.error;
  const principal = await serve.server.cairn.authenticate(serve.admin);
  if (!principal) throw new Error("the admin token did not authenticate");
  const code = new URL(await serve.server.cairn.oauth.decide(check.request, principal, true)).searchParams.get("code") as string;
  const tokens = await postForm(`${serve.base}/oauth/token`, {
    grant_type: "authorization_code",
    code,
    client_id: clientId,
    redirect_uri: redirect,
    code_verifier: verifier,
    resource: `${serve.base}/mcp`,
  });
  if (tokens.status !== 200) throw new Error(`exchange failed: ${JSON.stringify(tokens.body)}`);
  return tokens.body as { access_token: string; refresh_token: string; expires_in: string };
}

/** tools/list on /mcp with a bearer token: 200 while the token is good. */
export async function mcpStatus(base: string, token: string): Promise<number> {
  const res = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  await res.arrayBuffer();
  return res.status;
}
