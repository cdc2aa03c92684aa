import { DRIVERS } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeQuery, grantOver, mcpStatus, type OAuthServe, postForm, registerOver, startOAuthServe } from "./oauth-serve.js";

/** SPEC §37 against a real `cairn serve`: registration bounded per address and in total, loopback ports, the refresh race. */
describe.each(DRIVERS)("OAuth bounds through cairn serve (%s)", (driver) => {
  let serve: OAuthServe;

  beforeAll(async () => {
    serve = await startOAuthServe(driver, { CAIRN_OAUTH_MAX_CLIENTS: "3" });
  });
  afterAll(async () => serve?.close());

  /** Where the authorize endpoint sends an outsider: 303 to the sign-in form when the request is good, 400 on Cairn's page when not. */
  const authorizeStatus = async (clientId: string, redirect: string) => {
    const res = await fetch(`${serve.base}/oauth/authorize?${authorizeQuery(serve.base, clientId, redirect)}`, { redirect: "manual" });
    await res.arrayBuffer();
    return res.status;
  };

  it("keeps every client a person allowed and drops the oldest unused ones past the cap", async () => {
    const redirect = "https://host.example/cb";
    const ids: string[] = [];
    for (const name of ["allowed", "b", "c", "d", "e"]) {
      const made = await registerOver(serve.base, redirect, name);
      expect(made.status).toBe(201);
      ids.push(made.body.client_id as string);
      if (name === "allowed") await grantOver(serve, made.body.client_id as string, redirect);
      serve.advance(1);
    }
    const [allowed, b, c, d, e] = ids as [string, string, string, string, string];
    expect(await authorizeStatus(allowed, redirect)).toBe(303);
    expect(await authorizeStatus(b, redirect)).toBe(400);
    for (const kept of [c, d, e]) expect(await authorizeStatus(kept, redirect)).toBe(303);
  });

  it("answers 200 rapid registrations from one address with a 429, Retry-After and a clear error, and makes no client for those", async () => {
    serve.advance(3600);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => registerOver(serve.base, "https://host.example/cb", `rapid ${i}`)));
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    expect(refused).toHaveLength(180);
    expect(refused[0]?.body).toEqual({
      error: "temporarily_unavailable",
      error_description: expect.stringMatching(/^Too many client registrations from your address; try again in \d+ seconds\.$/),
    });
    expect(Number(refused[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.every((a) => a.body.client_id === undefined)).toBe(true);
  });

  it("matches a registered loopback redirect URI on any port, never on another host or path (RFC 8252 §7.3)", async () => {
    serve.advance(3600);
    const client = (await registerOver(serve.base, "http://127.0.0.1:4242/cb")).body.client_id as string;
    const v6 = (await registerOver(serve.base, "http://[::1]/cb")).body.client_id as string;
    const named = (await registerOver(serve.base, "http://localhost:1/cb?app=1")).body.client_id as string;
    for (const good of ["http://127.0.0.1:4242/cb", "http://127.0.0.1:50123/cb", "http://127.0.0.1/cb"])
      expect(await authorizeStatus(client, good), good).toBe(303);
    for (const bad of [
      "http://localhost:50123/cb",
      "http://127.0.0.1:50123/cb/x",
      "http://127.0.0.1:0/cb",
      "http://127.0.0.1:50123/cb?x",
      "http://127.0.0.2:4242/cb",
    ])
      expect(await authorizeStatus(client, bad), bad).toBe(400);
    expect(await authorizeStatus(v6, "http://[::1]:61000/cb")).toBe(303);
    expect(await authorizeStatus(v6, "http://127.0.0.1:61000/cb")).toBe(400);
    expect(await authorizeStatus(named, "http://localhost:8080/cb?app=1")).toBe(303);
    expect(await authorizeStatus(named, "http://localhost:8080/cb?app=2")).toBe(400);
    // The code is bound to the port asked for, and the exchange names it.
    const tokens = await grantOver(serve, client, "http://127.0.0.1:50123/cb");
    expect(await mcpStatus(serve.base, tokens.access_token)).toBe(200);
  });

  it("two processes of one host refreshing with one token at once get the same new pair; reused after the window, the grant ends", async () => {
    serve.advance(3600);
    const redirect = "http://127.0.0.1:7000/cb";
    const client = (await registerOver(serve.base, redirect)).body.client_id as string;
    const first = await grantOver(serve, client, redirect);
    const refresh = () => postForm(`${serve.base}/oauth/token`, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: client });
    const [a, b] = await Promise.all([refresh(), refresh()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refresh_token).not.toBe(first.refresh_token);
    expect(b.body.access_token).toBe(a.body.access_token);
    expect(b.body.refresh_token).toBe(a.body.refresh_token);
    expect(await mcpStatus(serve.base, a.body.access_token as string)).toBe(200);
    // Another client presenting it changes nothing.
    expect(
      (await postForm(`${serve.base}/oauth/token`, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: "cli_other" })).status,
    ).toBe(400);

    serve.advance(11);
    const late = await refresh();
    expect(late).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "The refresh token was already used; the grant has been revoked." },
    });
    expect(await mcpStatus(serve.base, a.body.access_token as string)).toBe(401);
  });

  it("a spent token whose pair was itself refreshed is a replay even within the window: the grant ends", async () => {
    serve.advance(3600);
    const redirect = "http://127.0.0.1:7001/cb";
    const client = (await registerOver(serve.base, redirect)).body.client_id as string;
    const first = await grantOver(serve, client, redirect);
    const second = await postForm(`${serve.base}/oauth/token`, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: client });
    const third = await postForm(`${serve.base}/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: second.body.refresh_token as string,
      client_id: client,
    });
    expect(third.status).toBe(200);
    const replay = await postForm(`${serve.base}/oauth/token`, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: client });
    expect(replay.body.error).toBe("invalid_grant");
    expect(await mcpStatus(serve.base, third.body.access_token as string)).toBe(401);
  });
});
