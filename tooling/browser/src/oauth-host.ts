import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/**
 * What a chat host keeps for one server, as the MCP SDK's own `OAuthClientProvider`
 * asks: its registration, tokens and PKCE verifier in memory; "opening a browser" records
 * the authorization URL for the test's Chromium to visit.
 */
export class HostProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  readonly expectedState = randomBytes(16).toString("base64url");

  constructor(
    readonly redirectUrl: string,
    readonly name = "Test Host",
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return this.expectedState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The host's redirect listener on the loopback address: it records every query it is sent back with. */
export async function startCallback(): Promise<{ url: string; last(): URLSearchParams | undefined; close(): Promise<void> }> {
  let last: URLSearchParams | undefined;
  const server: Server = createServer((req, res) => {
    last = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end('<!doctype html><html lang="en"><head><title>Back in the app</title></head><body><main><p>You can close this tab.</p></main></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    last: () => last,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A form-encoded POST, as OAuth's endpoints take them. */
export async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
}

/** The chat host's own site (localhost: another site than 127.0.0.1) with a link to the authorization URL, as hosts open it. */
export async function startHostSite(link: string): Promise<{ url: string; close(): Promise<void> }> {
  const page = `<!doctype html><html lang="en"><head><title>Chat host</title></head><body><main><a id="connect" href="${link.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}">Connect Cairn</a></main></body></html>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
