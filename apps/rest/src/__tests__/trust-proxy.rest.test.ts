import type { Store } from "@cairn/core";
import { createLogger, parseTrustProxy } from "@cairn/core";
import { createTestWorld, openTestStore, type TestWorld } from "@cairn/core/testing";
import { createWebApp } from "@cairn/web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRestApp } from "../app.js";

/**
 * CAIRN_TRUST_PROXY through the whole app `cairn serve` runs (REST with the web mounted):
 * a forged X-Forwarded-Proto from a peer nobody named neither renames nor secures the
 * cookie, and X-Forwarded-For changes the logged client only from a named proxy.
 */
describe("X-Forwarded-* and CAIRN_TRUST_PROXY", () => {
  let store: Store;
  let world: TestWorld;
  const lines: string[] = [];
  beforeAll(async () => {
    store = await openTestStore("pglite");
    world = await createTestWorld(store, { logger: createLogger({ format: "json", write: (l) => void lines.push(l) }) });
  });
  afterAll(async () => store?.close());

  const appWith = (trust: string | undefined) => {
    const app = createRestApp(world.cairn, { accessLog: true, trustProxy: parseTrustProxy(trust) });
    app.route("/", createWebApp(world.cairn));
    return app;
  };
  // What node-server hands the app: the socket the request came in on.
  const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
  const signinPage = (app: ReturnType<typeof appWith>, peer: string, requestId: string) =>
    app.fetch(
      new Request("http://cairn.test/signin", { headers: { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.9", "x-request-id": requestId } }),
      from(peer),
    );

  it.each([
    ["nobody trusted", false, undefined, "127.0.0.1", "127.0.0.1"],
    ["a peer the list does not name", false, "10.0.0.0/8", "127.0.0.1", "127.0.0.1"],
    ["a named proxy", true, "loopback", "::ffff:127.0.0.1", "198.51.100.9"],
  ])("%s: Secure cookie %s", async (_, secure, trust, peer, client) => {
    const requestId = `proxy-${Math.random().toString(36).slice(2)}`;
    const res = await signinPage(appWith(trust), peer, requestId);
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().join("\n");
    expect(cookie.startsWith(secure ? "__Host-cairn_signin=" : "cairn_signin=")).toBe(true);
    expect(/;\s*Secure/i.test(cookie)).toBe(secure);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((o) => o.request_id === requestId);
    expect(logged).toMatchObject({ event: "request", client });
  });
});
