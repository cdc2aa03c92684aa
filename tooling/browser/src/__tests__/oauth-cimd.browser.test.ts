import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTestHome } from "@cairn/core/testing";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../env.js";
import { HostProvider, startCallback } from "../oauth-host.js";

const run = promisify(execFile);
const CAIRN = fileURLToPath(new URL("../../../../apps/cli/dist/bin.cjs", import.meta.url));

/** An https site on 127.0.0.1 with its own certificate authority: where a client publishes its metadata document. */
async function startDocumentSite(scratch: string, documents: (base: string) => Record<string, string>) {
  const key = join(scratch, "key.pem");
  const cert = join(scratch, "cert.pem");
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
    "-keyout",
    key,
    "-out",
    cert,
  ]);
  let served: Record<string, string> = {};
  let fetches = 0;
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    fetches++;
    const body = served[req.url ?? ""];
    if (body?.startsWith("redirect:")) {
      res.writeHead(302, { location: body.slice("redirect:".length) });
      return res.end();
    }
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" });
    res.end(body ?? "{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served = documents(base);
  return {
    base,
    cert,
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `cairn serve` as its own process (the built binary), trusting the document site's certificate. */
async function spawnServe(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; output(): string }> {
  const child = spawn(process.execPath, [CAIRN, "serve"], { env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 60_000);
    child.stdout?.on("data", (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once("exit", () => reject(new Error(`serve exited:\n${out}`)));
  });
  return { url, child, output: () => out };
}

/**
 * Client ID Metadata Documents (SPEC §26, ADR 0054): the client id is an https URL whose
 * JSON names the client and its redirect URIs. Here the operator also allows only listed
 * clients (CAIRN_OAUTH_CLIENTS), which closes dynamic registration.
 */
describe("a client known by its metadata document, on a server that allows only listed clients", () => {
  let scratch: string;
  let site: Awaited<ReturnType<typeof startDocumentSite>>;
  let home: Awaited<ReturnType<typeof createTestHome>>;
  let serve: Awaited<ReturnType<typeof spawnServe>>;
  let callback: Awaited<ReturnType<typeof startCallback>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "cairn-cimd-"));
    callback = await startCallback();
    site = await startDocumentSite(scratch, (base) => ({
      "/client.json": JSON.stringify({
        client_id: `${base}/client.json`,
        client_name: "Doc Host",
        redirect_uris: [callback.url],
        token_endpoint_auth_method: "none",
      }),
      "/other-redirect.json": JSON.stringify({
        client_id: `${base}/other-redirect.json`,
        client_name: "Elsewhere",
        redirect_uris: ["https://elsewhere.example/cb"],
      }),
      "/impostor.json": JSON.stringify({ client_id: `${base}/client.json`, client_name: "Impostor", redirect_uris: [callback.url] }),
      "/nul.json": `{"client_id":"${base}/nul.json","client_name":"Nul\\u0000Host","redirect_uris":["${callback.url}"],"notes":"\\u0000\\ud800"}`,
      "/big.json": JSON.stringify({ client_id: `${base}/big.json`, client_name: "Big", redirect_uris: [callback.url], padding: "x".repeat(20_000) }),
      // Moved on its own origin: followed. Moved to another origin (localhost is another host): not followed.
      "/moved.json": `redirect:${base}/moved-here.json`,
      "/moved-here.json": JSON.stringify({ client_id: `${base}/moved.json`, client_name: "Moved", redirect_uris: [callback.url] }),
      "/away.json": `redirect:${base.replace("127.0.0.1", "localhost")}/client.json`,
    }));
    home = await createTestHome("pglite");
    const listed = ["/client.json", "/other-redirect.json", "/impostor.json", "/big.json", "/nul.json", "/moved.json", "/away.json"]
      .map((p) => `${site.base}${p}`)
      .join(",");
    serve = await spawnServe({ ...home.env, NODE_EXTRA_CA_CERTS: site.cert, CAIRN_OAUTH_CLIENTS: listed, CAIRN_ACCESS_LOG: "1" });
    admin = (JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")) as { token: string }).token;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    if (serve && serve.child.exitCode === null) {
      const exited = new Promise((resolve) => serve.child.once("exit", resolve));
      serve.child.kill("SIGTERM");
      const timer = setTimeout(() => serve.child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await browser?.close();
    await site?.close();
    await callback?.close();
    await home?.dispose();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("the SDK uses its document URL as client_id; the person sees the document's name and allows; the token works; the document is fetched once", async () => {
    const meta = (await (await fetch(`${serve.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(meta.client_id_metadata_document_supported).toBe(true);
    expect(meta.registration_endpoint).toBeUndefined();

    const provider = Object.assign(new HostProvider(callback.url, "ignored"), { clientMetadataUrl: `${site.base}/client.json` });
    const first = new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: "doc", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl as URL;
    expect(url.searchParams.get("client_id")).toBe(`${site.base}/client.json`);

    const page = await browser.context.newPage();
    await page.goto(url.href);
    await page.fill("#token", admin);
    await page.click("button[type=submit]");
    await page.waitForSelector("h1#consent-heading");
    await expect(page.locator("h1").textContent()).resolves.toBe("Connect Doc Host to Cairn?");
    await expect(page.locator("dl.facts").textContent()).resolves.toContain(`${site.base}/client.json`);
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callback.url)), page.click("button[value=allow]")]);
    const code = new URL(page.url()).searchParams.get("code") as string;
    await page.close();

    await first.finishAuth(code);
    const client = new Client({ name: "doc", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serve.url}/mcp`), { authProvider: provider }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    // Fetched when the authorization was checked, then served from the stored copy (token exchange included).
    expect(site.fetches()).toBe(1);
    // The access log saw every step, and no code or token.
    const log = serve.output();
    expect(log).toContain("path=/oauth/token status=200");
    expect(log).toContain("method=POST path=/oauth/authorize status=303");
    for (const secret of [code, provider.saved?.access_token, provider.saved?.refresh_token]) expect(log).not.toContain(secret as string);
  });

  it("refuses a document that does not list the redirect URI, one that names another URL, one over 16 KiB, and any client not listed", async () => {
    const attempt = async (clientId: string) => {
      const res = await fetch(
        `${serve.url}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: callback.url, code_challenge: "a".repeat(43), code_challenge_method: "S256", resource: `${serve.url}/mcp` })}`,
        { redirect: "manual" },
      );
      expect(res.headers.get("location")).toBeNull();
      return { status: res.status, text: await res.text() };
    };
    expect(await attempt(`${site.base}/other-redirect.json`)).toMatchObject({
      status: 400,
      text: expect.stringContaining("redirect_uri is not one the client registered"),
    });
    expect(await attempt(`${site.base}/impostor.json`)).toMatchObject({ status: 400, text: expect.stringContaining("does not name its own URL as client_id") });
    expect(await attempt(`${site.base}/big.json`)).toMatchObject({ status: 400, text: expect.stringContaining("larger than 16384 bytes") });
    expect(await attempt(`${site.base}/unlisted.json`)).toMatchObject({ status: 400, text: expect.stringContaining("only the clients its operator listed") });
    const beforeAway = site.fetches();
    expect(await attempt(`${site.base}/away.json`)).toMatchObject({
      status: 400,
      text: expect.stringContaining("could not be fetched: it redirected off its own origin"),
    });
    expect(site.fetches()).toBe(beforeAway + 1);
    const moved = await fetch(
      `${serve.url}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: `${site.base}/moved.json`, redirect_uri: callback.url, code_challenge: "a".repeat(43), code_challenge_method: "S256", resource: `${serve.url}/mcp` })}`,
      { redirect: "manual" },
    );
    expect(moved.status).toBe(303);

    // A document holding what the database cannot store is still read: only its checked fields are kept.
    const nul = await fetch(
      `${serve.url}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: `${site.base}/nul.json`, redirect_uri: callback.url, code_challenge: "a".repeat(43), code_challenge_method: "S256", resource: `${serve.url}/mcp` })}`,
      { redirect: "manual" },
    );
    expect(nul.status).toBe(303);

    const registration = await fetch(`${serve.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "x", redirect_uris: [callback.url] }),
    });
    expect(registration.status).toBe(403);
    expect(((await registration.json()) as { error: string }).error).toBe("invalid_client_metadata");
  });
});
