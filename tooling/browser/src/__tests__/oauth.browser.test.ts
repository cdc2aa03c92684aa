import { execFile } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { type RunningServer, startServer } from "@cairn/cli";
import { resolveSettings } from "@cairn/core/local";
import { createTestHome, DRIVERS, minimalReceipt } from "@cairn/core/testing";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../env.js";
import { HostProvider, pkce, postForm, startCallback, startHostSite } from "../oauth-host.js";

const run = promisify(execFile);
const CAIRN = fileURLToPath(new URL("../../../../apps/cli/dist/bin.cjs", import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL("../../../../apps/web/screenshots/", import.meta.url));

/**
 * SPEC §26 end to end: a real `cairn serve`, the MCP SDK's own OAuth client support
 * (OAuthClientProvider + StreamableHTTPClientTransport's authProvider) as the chat host,
 * and headless Chromium as the person who signs in and allows (or denies).
 */
describe.each(DRIVERS)("OAuth for /mcp with a person's consent (%s)", (driver) => {
  let home: Awaited<ReturnType<typeof createTestHome>>;
  let server: RunningServer;
  let base: string;
  let admin: string;
  let callback: Awaited<ReturnType<typeof startCallback>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let signedIn = false;

  beforeAll(async () => {
    home = await createTestHome(driver);
    const settings = resolveSettings({ ...home.env, PORT: "0", HOST: "127.0.0.1" });
    server = await startServer(settings, { info: () => {} }, "oauth");
    base = server.url;
    admin = (JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")) as { token: string }).token;
    callback = await startCallback();
    browser = await launchBrowser();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await server?.close();
    await home?.dispose();
  });

  /** The person: follows the authorization URL, signs in the first time, and answers the consent page. */
  async function answer(url: URL | string, decision: "Allow" | "Deny", onConsent?: (page: Page) => Promise<void>): Promise<URLSearchParams> {
    const page = await browser.context.newPage();
    try {
      await page.goto(String(url));
      if (!signedIn) {
        expect(new URL(page.url()).pathname).toBe("/signin");
        await page.fill("#token", admin);
        await page.click("button[type=submit]");
        signedIn = true;
      }
      await page.waitForSelector("h1#consent-heading");
      await onConsent?.(page);
      await Promise.all([page.waitForURL((u) => u.href.startsWith(callback.url)), page.click(`button[value=${decision.toLowerCase()}]`)]);
      return new URL(page.url()).searchParams;
    } finally {
      await page.close();
    }
  }

  /** A host connected through the SDK: discovery, registration, the browser, finishAuth. */
  async function connectHost(name: string, onConsent?: (page: Page) => Promise<void>) {
    const provider = new HostProvider(callback.url, name);
    const first = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
    await expect(new Client({ name, version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl as URL;
    const back = await answer(url, "Allow", onConsent);
    await first.finishAuth(back.get("code") as string);
    const client = new Client({ name, version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
    return { provider, client, url, back };
  }

  const mcp = (token: string | null) =>
    fetch(`${base}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });

  const register = async (redirect = callback.url, name = "Raw Client") => {
    const res = await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: name, redirect_uris: [redirect], token_endpoint_auth_method: "none" }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };

  const authorizeUrl = (clientId: string, challenge: string, extra: Record<string, string> = {}) =>
    `${base}/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: callback.url,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s-123",
      resource: `${base}/mcp`,
      ...extra,
    })}`;

  it("discovery: /mcp without a token is a 401 naming the resource metadata; both documents say what the issue asks", async () => {
    const res = await mcp(null);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer realm="cairn", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    const bad = await mcp("cairn_not_a_token");
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const prm = (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
      expect(prm).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    }
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect(as.token_endpoint_auth_methods_supported).toContain("none");
  });

  it("the SDK's client registers, the person signs in and allows, and the host lists tools and leaves a receipt with an agent token", async () => {
    const shots = async (page: Page) => {
      for (const width of [1280, 390]) {
        for (const scheme of ["light", "dark"] as const) {
          await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
          await page.emulateMedia({ colorScheme: scheme });
          const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(scroll, `consent ${width} ${scheme}`).toBeLessThanOrEqual(0);
          if ((width === 1280) === (scheme === "light")) {
            const axe = await new AxeBuilder({ page }).analyze();
            expect(axe.violations.filter((x) => x.impact === "serious" || x.impact === "critical").map((x) => x.id)).toEqual([]);
          }
          await page.screenshot({ path: join(SCREENSHOTS, `oauth-consent-${width}-${scheme}.png`), fullPage: true });
        }
      }
      await expect(page.locator("h1").textContent()).resolves.toBe("Connect Test Host to Cairn?");
      await expect(page.locator("dl.facts").textContent()).resolves.toContain(new URL(callback.url).host);
    };
    const { client, url, back, provider } = await connectHost("Test Host", driver === DRIVERS[0] ? shots : undefined);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(`${base}/mcp`);
    expect(back.get("iss")).toBe(base);
    expect(back.get("state")).toBe(provider.expectedState);
    expect(back.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("receipt_create");
    const made = await client.callTool({ name: "receipt_create", arguments: { ...minimalReceipt(), title: "Left from a chat host" } });
    expect(made.isError).toBeFalsy();
    const id = JSON.stringify(made.structuredContent).match(/art_[0-9a-z]{26}/)?.[0] as string;
    expect(id).toBeDefined();
    const artifact = (await (await fetch(`${base}/v1/artifacts/${id}`, { headers: { authorization: `Bearer ${admin}` } })).json()) as {
      provenance: { actor: { name: string; kind: string }; surface: string };
    };
    expect(artifact.provenance.actor).toMatchObject({ name: "Test Host", kind: "agent" });
    await client.close();

    // Listed as an agent token named after the client, on REST and in `cairn token list`.
    const list = (await (await fetch(`${base}/v1/tokens`, { headers: { authorization: `Bearer ${admin}` } })).json()) as {
      items: Array<{ name: string; kind: string }>;
    };
    expect(list.items).toContainEqual(expect.objectContaining({ name: "Test Host", kind: "agent" }));
    const cli = await run(process.execPath, [CAIRN, "token", "list"], {
      env: { ...process.env, CAIRN_URL: base, CAIRN_TOKEN: admin, CAIRN_HOME: "/nonexistent/cairn-home" },
    });
    expect(cli.stdout).toMatch(/Test Host.*agent|agent.*Test Host/);

    // An agent token: refused what only a person may do.
    const access = provider.saved?.access_token as string;
    const ack = await fetch(`${base}/v1/artifacts/${id}/acknowledge`, {
      method: "POST",
      headers: { authorization: `Bearer ${access}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(ack.status).toBe(403);
    expect(((await ack.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    const mint = await fetch(`${base}/v1/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${access}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "escalate", kind: "human" }),
    });
    expect(mint.status).toBe(403);
  });

  it("the 2.x SDK client (@modelcontextprotocol/client) connects the same way, checking iss (RFC 9207) when it finishes", async () => {
    const two = await import("@modelcontextprotocol/client");
    const provider = new HostProvider(callback.url, "Second Line Host");
    const first = new two.StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider as never });
    await expect(new two.Client({ name: "two", version: "1" }).connect(first)).rejects.toBeInstanceOf(two.UnauthorizedError);
    const back = await answer(provider.authorizationUrl as URL, "Allow");
    await first.finishAuth(back);
    const client = new two.Client({ name: "two", version: "1" });
    await client.connect(new two.StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider as never }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("receipt_create");
    await client.close();
  });

  it("a refresh token rotates on every use; reusing a rotated one revokes the whole grant, its access token too", async () => {
    const { provider, client } = await connectHost("Rotating Host");
    await client.close();
    const clientId = provider.client?.client_id as string;
    const first = provider.saved as { access_token: string; refresh_token: string };
    const refresh = (token: string) =>
      postForm(`${base}/oauth/token`, { grant_type: "refresh_token", refresh_token: token, client_id: clientId, resource: `${base}/mcp` });
    const rotated = await refresh(first.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    const second = rotated.body as { access_token: string; refresh_token: string; expires_in: number };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.expires_in).toBe(3600);
    expect((await mcp(first.access_token)).status).toBe(401);
    expect((await mcp(second.access_token)).status).toBe(200);

    // Presented again at once by the same client (a second process of the host), it answers the same pair (SPEC §37).
    const raced = await refresh(first.refresh_token);
    expect(raced.status).toBe(200);
    expect(raced.body).toMatchObject({ access_token: second.access_token, refresh_token: second.refresh_token });
    // Once that pair was itself refreshed, the first token is a replay: the whole grant ends.
    const third = (await refresh(second.refresh_token)).body as { access_token: string; refresh_token: string };
    expect((await mcp(third.access_token)).status).toBe(200);
    const reused = await refresh(first.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
    expect((await mcp(third.access_token)).status).toBe(401);
    const after = await refresh(third.refresh_token);
    expect(after.body.error).toBe("invalid_grant");
  });

  it("refuses a wrong verifier, a reused code (revoking what it gave), an unregistered redirect URI and a foreign resource", async () => {
    const registered = await register();
    expect(registered.status).toBe(201);
    const clientId = registered.body.client_id as string;

    const one = pkce();
    const code1 = (await answer(authorizeUrl(clientId, one.challenge), "Allow")).get("code") as string;
    const wrong = await postForm(`${base}/oauth/token`, {
      grant_type: "authorization_code",
      code: code1,
      client_id: clientId,
      redirect_uri: callback.url,
      code_verifier: pkce().verifier,
    });
    expect([wrong.status, wrong.body.error]).toEqual([400, "invalid_grant"]);

    const two = pkce();
    const code2 = (await answer(authorizeUrl(clientId, two.challenge), "Allow")).get("code") as string;
    const exchange = { grant_type: "authorization_code", code: code2, client_id: clientId, redirect_uri: callback.url, code_verifier: two.verifier };
    const otherClient = (await register(callback.url, "Other")).body.client_id as string;
    expect((await postForm(`${base}/oauth/token`, { ...exchange, client_id: otherClient })).body.error).toBe("invalid_grant");

    const three = pkce();
    const code3 = (await answer(authorizeUrl(clientId, three.challenge), "Allow")).get("code") as string;
    const good = await postForm(`${base}/oauth/token`, {
      grant_type: "authorization_code",
      code: code3,
      client_id: clientId,
      redirect_uri: callback.url,
      code_verifier: three.verifier,
    });
    expect(good.status).toBe(200);
    expect((await mcp(good.body.access_token as string)).status).toBe(200);
    const again = await postForm(`${base}/oauth/token`, {
      grant_type: "authorization_code",
      code: code3,
      client_id: clientId,
      redirect_uri: callback.url,
      code_verifier: three.verifier,
    });
    expect([again.status, again.body.error]).toEqual([400, "invalid_grant"]);
    expect((await mcp(good.body.access_token as string)).status).toBe(401);

    // An unregistered redirect URI: refused on Cairn's own page, never sent there.
    const elsewhere = await fetch(authorizeUrl(clientId, pkce().challenge, { redirect_uri: "https://attacker.example/cb" }), { redirect: "manual" });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get("location")).toBeNull();
    expect(await elsewhere.text()).toContain("redirect_uri is not one the client registered");

    // A foreign resource: the redirect URI is genuine, so the error goes back to the client with its state.
    const foreign = await fetch(authorizeUrl(clientId, pkce().challenge, { resource: "https://other.example/mcp" }), { redirect: "manual" });
    expect(foreign.status).toBe(302);
    const to = new URL(foreign.headers.get("location") as string);
    expect(`${to.origin}${to.pathname}`).toBe(callback.url);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ error: "invalid_target", state: "s-123", iss: base });

    // Registration refuses a redirect URI that is neither https nor loopback.
    const evil = await register("http://attacker.example/cb");
    expect([evil.status, evil.body.error]).toEqual([400, "invalid_redirect_uri"]);
  });

  it("a person signed in who follows the link from the host's own site gets the consent page, not the sign-in form", async () => {
    expect(signedIn).toBe(true);
    const clientId = (await register()).body.client_id as string;
    const site = await startHostSite(authorizeUrl(clientId, pkce().challenge));
    const page = await browser.context.newPage();
    try {
      await page.goto(site.url);
      // The SameSite=Strict cookie stays home on a cross-site navigation; the page asks again from Cairn's own origin.
      await Promise.all([page.waitForSelector("h1#consent-heading"), page.click("#connect")]);
      expect(new URL(page.url()).pathname).toBe("/oauth/authorize");
    } finally {
      await page.close();
      await site.close();
    }
  });

  it("Deny sends the app access_denied with its state; no code", async () => {
    const clientId = (await register()).body.client_id as string;
    const back = await answer(authorizeUrl(clientId, pkce().challenge), "Deny");
    expect(Object.fromEntries(back)).toMatchObject({ error: "access_denied", state: "s-123", iss: base });
    expect(back.get("code")).toBeNull();
  });

  it("revocation (RFC 7009) and Disconnect on the settings page each end access on the next request", async () => {
    const a = await connectHost("Revoked Host");
    await a.client.close();
    const revoked = await postForm(`${base}/oauth/revoke`, {
      token: a.provider.saved?.access_token as string,
      client_id: a.provider.client?.client_id as string,
    });
    expect(revoked.status).toBe(200);
    expect((await mcp(a.provider.saved?.access_token as string)).status).toBe(401);
    const refreshed = await postForm(`${base}/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: a.provider.saved?.refresh_token as string,
      client_id: a.provider.client?.client_id as string,
    });
    expect(refreshed.body.error).toBe("invalid_grant");

    const b = await connectHost("Settings Host");
    await b.client.close();
    expect((await mcp(b.provider.saved?.access_token as string)).status).toBe(200);
    const page = await browser.context.newPage();
    await page.goto(`${base}/settings`);
    const item = page.locator("li", { hasText: "Settings Host" });
    await expect(item.textContent()).resolves.toMatch(/sends you back to 127\.0\.0\.1:\d+.*connected .*UTC.*last used .*UTC/s);
    if (driver === DRIVERS[0]) await settingsShots(page);
    await Promise.all([page.waitForURL(`${base}/settings?done=revoked`), item.getByRole("button", { name: "Disconnect Settings Host" }).click()]);
    await expect(page.locator("main").textContent()).resolves.not.toContain("Settings Host");
    await page.close();
    expect((await mcp(b.provider.saved?.access_token as string)).status).toBe(401);
  });

  it("refuses hostile input in OAuth's own shapes, never a 500", async () => {
    const token = (fields: Record<string, string>) => postForm(`${base}/oauth/token`, fields);
    expect((await token({ grant_type: "password", username: "a", password: "b" })).body.error).toBe("unsupported_grant_type");
    expect((await token({})).body.error).toBe("invalid_request");
    expect(
      (await token({ grant_type: "authorization_code", code: "x", client_id: "cli_nope", redirect_uri: callback.url, code_verifier: "a".repeat(43) })).status,
    ).toBe(401);
    expect((await token({ grant_type: "refresh_token", refresh_token: "nope", client_id: "cli_nope" })).body.error).toBe("invalid_grant");
    const json = await fetch(`${base}/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect([json.status, ((await json.json()) as { error: string }).error]).toEqual([400, "invalid_request"]);
    const huge = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=${"a".repeat(40_000)}`,
    });
    expect([huge.status, ((await huge.json()) as { error: string }).error]).toEqual([400, "invalid_request"]);
    const repeated = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&grant_type=authorization_code",
    });
    expect(((await repeated.json()) as { error: string }).error).toBe("invalid_request");
    const badJson = await fetch(`${base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect([badJson.status, ((await badJson.json()) as { error: string }).error]).toEqual([400, "invalid_client_metadata"]);
    const nul = await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "a\u0000b\u202e", redirect_uris: [callback.url] }),
    });
    expect(nul.status).toBe(201);
    expect(((await nul.json()) as { client_name: string }).client_name).toBe("a b");
    const noClient = await fetch(`${base}/oauth/authorize?client_id=cli_missing&redirect_uri=${encodeURIComponent(callback.url)}`, { redirect: "manual" });
    expect(noClient.status).toBe(400);
    const plain = await fetch(authorizeUrl((await register()).body.client_id as string, pkce().challenge, { code_challenge_method: "plain" }), {
      redirect: "manual",
    });
    expect(new URL(plain.headers.get("location") as string).searchParams.get("error")).toBe("invalid_request");
    const revokeNothing = await postForm(`${base}/oauth/revoke`, { token: "cairn_oat_unknown" });
    expect(revokeNothing.status).toBe(200);
  });

  async function settingsShots(page: Page) {
    for (const width of [1280, 390]) {
      for (const scheme of ["light", "dark"] as const) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.emulateMedia({ colorScheme: scheme });
        const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(scroll, `settings ${width} ${scheme}`).toBeLessThanOrEqual(0);
        if ((width === 1280) === (scheme === "light")) {
          const axe = await new AxeBuilder({ page }).analyze();
          expect(axe.violations.filter((x) => x.impact === "serious" || x.impact === "critical").map((x) => x.id)).toEqual([]);
        }
        await page.screenshot({ path: join(SCREENSHOTS, `settings-${width}-${scheme}.png`), fullPage: true });
      }
    }
  }
});
