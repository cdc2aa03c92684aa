import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";
import { promisify } from "node:util";
import { DRIVERS } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeQuery, type OAuthServe, postForm, startOAuthServe } from "./oauth-serve.js";

/** Loopback listeners that count every connection: an open plain port, a TLS port, and a port nobody listens on. */
async function startTargets() {
  const scratch = mkdtempSync(join(tmpdir(), "cairn-outsider-"));
  await promisify(execFile)("openssl", [
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"],
    ...["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(scratch, "key.pem"), "-out", join(scratch, "cert.pem")],
  ]);
  const counts = { open: 0, tls: 0 };
  const sockets = new Set<Socket>();
  const open = createServer((socket) => {
    counts.open++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.end("HTTP/1.1 302 Found\r\nLocation: https://127.0.0.1/\r\n\r\n");
  });
  const tls = createTlsServer({ key: readFileSync(join(scratch, "key.pem")), cert: readFileSync(join(scratch, "cert.pem")) }, (socket) => socket.end());
  tls.on("connection", () => counts.tls++);
  const listen = (s: Server) => new Promise<number>((resolve) => s.listen(0, "127.0.0.1", () => resolve((s.address() as AddressInfo).port)));
  const closed = createServer();
  const closedPort = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return {
    ports: { closed: closedPort, open: await listen(open), tls: await listen(tls) },
    counts,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => open.close(() => resolve()));
      await new Promise<void>((resolve) => tls.close(() => resolve()));
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** The refusal text of Cairn's own authorize page. */
const refusalOf = (html: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];

/**
 * SPEC §37: before any sign-in, a client id naming a metadata document on a private address
 * makes the server connect nowhere, whatever the webhook setting, and every refusal reads
 * the same whatever is (or is not) listening there.
 */
describe.each(DRIVERS)("client metadata documents asked for by an outsider (%s)", (driver) => {
  let serve: OAuthServe;
  let targets: Awaited<ReturnType<typeof startTargets>>;
  const redirect = "https://host.example/cb";

  beforeAll(async () => {
    targets = await startTargets();
    serve = await startOAuthServe(driver);
  });
  afterAll(async () => {
    await serve?.close();
    await targets?.close();
  });

  const authorize = async (clientId: string) => {
    const res = await fetch(`${serve.base}/oauth/authorize?${authorizeQuery(serve.base, clientId, redirect)}`, { redirect: "manual" });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), refusal: refusalOf(await res.text()) };
  };
  const exchange = (clientId: string) =>
    postForm(`${serve.base}/oauth/token`, {
      grant_type: "authorization_code",
      code: "a".repeat(43),
      client_id: clientId,
      redirect_uri: redirect,
      code_verifier: "v".repeat(43),
    });

  it("connects to no private address, on the authorize page or the token endpoint, and answers one error for a closed, an open and a TLS port", async () => {
    const ids = (["closed", "open", "tls"] as const).flatMap((kind) =>
      ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]"].map((host) => `https://${host}:${targets.ports[kind]}/client.json`),
    );
    const pages = new Set<string>();
    const answers = new Set<string>();
    for (const [i, id] of ids.entries()) {
      if (i === 10) serve.advance(3600); // a fresh allowance for this address: this test counts answers, not the limit
      const page = await authorize(id);
      expect(page.status, id).toBe(400);
      pages.add(String(page.refusal));
      const answer = await exchange(id);
      expect(answer.status, id).toBe(401);
      answers.add(JSON.stringify(answer.body));
    }
    expect([...pages]).toEqual(["The client&#39;s metadata document could not be fetched."]);
    expect([...answers]).toEqual([JSON.stringify({ error: "invalid_client", error_description: "The client's metadata document could not be fetched." })]);
    expect(targets.counts).toEqual({ open: 0, tls: 0 });
  });

  it("limits the fetches one address causes (429 with Retry-After), and a failure asked for again is answered from memory", async () => {
    serve.advance(3600);
    const known = `https://127.0.0.1:${targets.ports.open}/known.json`;
    expect((await authorize(known)).status).toBe(400);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof authorize>> | undefined;
    for (let i = 0; i < 20 && !limited; i++) {
      const page = await authorize(`https://127.0.0.1:${targets.ports.open}/c${i}.json`);
      statuses.push(page.status);
      if (page.status === 429) limited = page;
    }
    expect(statuses.filter((s) => s === 400)).toHaveLength(9);
    expect(limited).toMatchObject({ status: 429, refusal: expect.stringContaining("Too many client metadata documents fetched from your address") });
    expect(Number(limited?.retryAfter)).toBeGreaterThan(0);
    // The failure is remembered for a minute: asking again costs no fetch, so the limit does not answer it.
    expect(await authorize(known)).toMatchObject({ status: 400, refusal: "The client&#39;s metadata document could not be fetched." });
    expect((await exchange(`https://127.0.0.1:${targets.ports.open}/c99.json`)).status).toBe(429);
    expect(targets.counts).toEqual({ open: 0, tls: 0 });
  });
});

/** ADR 0075: a client id the operator listed is vouched for, so its document may live on a private address. */
describe.each(DRIVERS)("a client id the operator listed in CAIRN_OAUTH_CLIENTS (%s)", (driver) => {
  let serve: OAuthServe;
  let targets: Awaited<ReturnType<typeof startTargets>>;

  beforeAll(async () => {
    targets = await startTargets();
    serve = await startOAuthServe(driver, { CAIRN_OAUTH_CLIENTS: `https://127.0.0.1:${targets.ports.open}/listed.json` });
  });
  afterAll(async () => {
    await serve?.close();
    await targets?.close();
  });

  it("is fetched from loopback and the operator reads why it failed; an unlisted one is still refused before any fetch", async () => {
    const query = authorizeQuery(serve.base, `https://127.0.0.1:${targets.ports.open}/listed.json`, "https://host.example/cb");
    const res = await fetch(`${serve.base}/oauth/authorize?${query}`, { redirect: "manual" });
    expect(res.status).toBe(400);
    // The open port speaks no TLS: the listed client's answer names the connection's failure.
    expect(refusalOf(await res.text())).toMatch(/^The client&#39;s metadata document could not be fetched: the connection failed \(\w+\)\.$/);
    expect(targets.counts.open).toBe(1);
    // A failure is remembered for a minute (no second connection), then the document is fetched again.
    await (await fetch(`${serve.base}/oauth/authorize?${query}`)).text();
    expect(targets.counts.open).toBe(1);
    serve.advance(61);
    await (await fetch(`${serve.base}/oauth/authorize?${query}`)).text();
    expect(targets.counts.open).toBe(2);
    const other = await fetch(
      `${serve.base}/oauth/authorize?${authorizeQuery(serve.base, `https://127.0.0.1:${targets.ports.tls}/x.json`, "https://h.example/cb")}`,
    );
    expect(refusalOf(await other.text())).toContain("only the clients its operator listed");
    expect(targets.counts.tls).toBe(0);
  });
});
