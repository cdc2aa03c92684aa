import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import type { Store } from "@cairn/core";
import { createTestWorld, DRIVERS, openTestStore } from "@cairn/core/testing";
import { createRestApp } from "@cairn/rest";
import { createWebApp } from "@cairn/web";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Generated client ids and redirect URIs per store (SPEC §37). */
const PER_STORE = Number(process.env.HOSTILE_OAUTH_TARGETS ?? 150);
const SEED = Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31);
const GENERIC = "The client's metadata document could not be fetched.";

/**
 * Spellings of loopback, private, link-local and unspecified addresses a URL parser or a
 * resolver turns into one: the server must refuse each before connecting. Only the
 * loopback ones could reach anything here, and a listener counts every connection to them.
 */
const PRIVATE_HOSTS = [
  "127.0.0.1",
  "127.1",
  "0x7f.0.0.1",
  "0177.0.0.1",
  "2130706433",
  "127.255.255.254",
  "localhost",
  "LOCALHOST",
  "localhost.",
  "[::1]",
  "[0:0:0:0:0:0:0:1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[::127.0.0.1]",
  "[64:ff9b::7f00:1]",
  "[2002:7f00:1::]",
  "0.0.0.0",
  "[::]",
  "10.0.0.1",
  "172.16.0.1",
  "192.168.0.1",
  "169.254.169.254",
  "100.64.0.1",
  "[fe80::1]",
  "[fc00::1]",
];

const clientIds = (port: number) =>
  fc
    .record({
      host: fc.constantFrom(...PRIVATE_HOSTS),
      port: fc.constantFrom(`:${port}`, "", ":443", ":1"),
      path: fc.constantFrom("/client.json", "/a/b.json", "/c.json?x=1", "/%2e%2e/x.json", "/x.json;y"),
    })
    .map(({ host, port: p, path }) => `https://${host}${p}${path}`);

const REGISTERED = "http://127.0.0.1:9/cb";
/** A redirect URI near the registered loopback one; it matches only as http on the same host and path, on a valid port or none. */
const mostly = <T>(likely: T, ...others: T[]) =>
  fc.oneof({ weight: others.length, arbitrary: fc.constant(likely) }, { weight: others.length, arbitrary: fc.constantFrom(...others) });
const nearRedirect = fc.record({
  scheme: mostly("http://", "https://", "HTTP://"),
  host: mostly("127.0.0.1", "localhost", "[::1]", "127.0.0.2", "127.0.0.1.evil.example", "evil.example@127.0.0.1", "127.0.0.1@evil.example"),
  port: fc.constantFrom("", ":9", ":1", ":65535", ":0", ":65536", ":99999", ":-1", ":09", ":8080"),
  rest: mostly("/cb", "/cb/", "/CB", "/cb/../cb", "/cb?x=1", "/cb#f", "", "/cb%2F", "//cb", "/cb\u0000"),
});
const validPort = (port: string) => port === "" || (/^:\d{1,5}$/.test(port) && Number(port.slice(1)) >= 1 && Number(port.slice(1)) <= 65_535);
const matchesLoopback = (r: { scheme: string; host: string; port: string; rest: string }) =>
  r.scheme === "http://" && r.host === "127.0.0.1" && r.rest === "/cb" && validPort(r.port);

describe.each(DRIVERS)(`hostile client ids and redirect URIs (seed ${SEED}) on %s`, (driver) => {
  let store: Store;
  let app: ReturnType<typeof createRestApp>;
  let listener: Server;
  let port = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  let clientId: string;

  beforeAll(async () => {
    listener = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as AddressInfo).port;
    store = await openTestStore(driver);
    const world = await createTestWorld(store);
    app = createRestApp(world.cairn);
    app.route("/", createWebApp(world.cairn));
    clientId = (await world.cairn.oauth.register({ client_name: "Loopback", redirect_uris: [REGISTERED] })).client_id;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => listener?.close(() => resolve()));
    await store?.close();
  });

  it(`${PER_STORE} client ids on private addresses: no connection, one error on the authorize page and the token endpoint`, async () => {
    const failures: string[] = [];
    for (const id of fc.sample(clientIds(port), { numRuns: PER_STORE, seed: SEED })) {
      const query = new URLSearchParams({ response_type: "code", client_id: id, redirect_uri: REGISTERED, code_challenge: "c".repeat(43) });
      const page = await app.request(`/oauth/authorize?${query}`);
      const text = await page.text();
      if (page.status !== 400 || !text.includes(GENERIC.replace("'", "&#39;"))) failures.push(`authorize ${id}: ${page.status}`);
      const token = await app.request("/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: "x", client_id: id, redirect_uri: REGISTERED, code_verifier: "v".repeat(43) }),
      });
      const body = await token.text();
      if (token.status !== 401 || body !== JSON.stringify({ error: "invalid_client", error_description: GENERIC }))
        failures.push(`token ${id}: ${token.status} ${body}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(connections).toBe(0);
  }, 120_000);

  it(`${PER_STORE} redirect URIs near a registered loopback one: only the same host and path on a valid port are sent to`, async () => {
    const failures: string[] = [];
    let matched = 0;
    for (const r of fc.sample(nearRedirect, { numRuns: PER_STORE, seed: SEED + 1 })) {
      const uri = `${r.scheme}${r.host}${r.port}${r.rest}`;
      // No response_type: an error the client hears at its redirect URI (as a URL writes it), once that URI is known to be the client's.
      const query = new URLSearchParams({ client_id: clientId, redirect_uri: uri, state: "s" });
      const res = await app.request(`/oauth/authorize?${query}`);
      const location = res.headers.get("location");
      if (matchesLoopback(r)) matched++;
      if (matchesLoopback(r) ? res.status !== 302 || !location?.startsWith(`${new URL(uri).href}?`) : res.status !== 400)
        failures.push(`${uri}: ${res.status} ${location}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(matched).toBeGreaterThan(0);
  }, 120_000);
});
