import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { OAuthError } from "../oauth/errors.js";
import { DRIVERS, TEST_PUBLIC_URL } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

let clock = new Date("2026-11-01T09:00:00Z");
const REDIRECT = "http://127.0.0.1:9/callback";
const verifier = "v".repeat(43);
const challenge = createHash("sha256").update(verifier).digest("base64url");
const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (err: unknown) => (err instanceof OAuthError ? err.error : String(err)),
  );

describe.each(DRIVERS)("OAuth grants on %s (SPEC §26)", (driver) => {
  const fx = useTestWorld(driver, () => clock);

  /** A registered client, a person's consent, and the code it gave. */
  async function consented() {
    const { cairn } = fx.world;
    const sam = await fx.world.user("sam");
    const client = await cairn.oauth.register({ client_name: "Chat", redirect_uris: [REDIRECT] });
    const check = await cairn.oauth.checkAuthorize(
      form({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: "xyz",
        resource: `${TEST_PUBLIC_URL}/mcp`,
      }),
    );
    if (!check.ok) throw check.error;
    const back = new URL(await cairn.oauth.decide(check.request, sam.principal, true));
    const code = back.searchParams.get("code") as string;
    const exchange = { grant_type: "authorization_code", code, client_id: client.client_id, redirect_uri: REDIRECT, code_verifier: verifier };
    return { sam, client, code, back, exchange };
  }

  it("an access token is an agent token of the person, named after the client; it stops at one hour, the refresh goes on", async () => {
    clock = new Date("2026-11-01T09:00:00Z");
    const { cairn } = fx.world;
    const { sam, exchange, back } = await consented();
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ state: "xyz", iss: TEST_PUBLIC_URL });
    const tokens = await cairn.oauth.token(form(exchange));
    const principal = await cairn.authenticate(tokens.access_token);
    expect(principal).toMatchObject({ user: { name: sam.name }, token: { name: "Chat", kind: "agent" } });

    clock = new Date("2026-11-01T09:59:59Z");
    expect(await cairn.authenticate(tokens.access_token)).not.toBeNull();
    clock = new Date("2026-11-01T10:00:00Z");
    expect(await cairn.authenticate(tokens.access_token)).toBeNull();
    await expect(cairn.authenticateHeader(`Bearer ${tokens.access_token}`, { cached: true })).rejects.toMatchObject({ code: "unauthenticated" });

    const renewed = await cairn.oauth.token(form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: exchange.client_id }));
    expect((await cairn.authenticate(renewed.access_token))?.token.kind).toBe("agent");

    // Minted tokens never expire.
    clock = new Date("2036-11-01T10:00:00Z");
    expect(await cairn.authenticate(sam.token)).not.toBeNull();
  });

  it("a code lives five minutes and is spent once, even by two exchanges at the same moment", async () => {
    clock = new Date("2026-11-01T09:00:00Z");
    const { cairn } = fx.world;
    const late = await consented();
    clock = new Date("2026-11-01T09:05:00Z");
    expect(await refusal(cairn.oauth.token(form(late.exchange)))).toBe("invalid_grant");

    clock = new Date("2026-11-01T09:10:00Z");
    const raced = await consented();
    const both = await Promise.all([refusal(cairn.oauth.token(form(raced.exchange))), refusal(cairn.oauth.token(form(raced.exchange)))]);
    expect(both.sort()).toEqual(["accepted", "invalid_grant"]);
  });

  it("stores codes, access and refresh tokens only as SHA-256", async () => {
    clock = new Date("2026-11-01T09:00:00Z");
    const { cairn, store } = fx.world;
    const { code, exchange } = await consented();
    const tokens = await cairn.oauth.token(form(exchange));
    const dump = JSON.stringify([
      await store.query("select * from oauth_codes"),
      await store.query("select * from oauth_refresh_tokens"),
      await store.query("select * from tokens"),
    ]);
    for (const secret of [code, tokens.access_token, tokens.refresh_token]) {
      expect(dump).not.toContain(secret);
      expect(dump).toContain(createHash("sha256").update(secret).digest("hex"));
    }
  });

  it("a registration nobody allowed within a week is deleted as new ones come; one with a grant stays", async () => {
    clock = new Date("2026-11-01T09:00:00Z");
    const { cairn } = fx.world;
    const idle = await cairn.oauth.register({ client_name: "Idle", redirect_uris: [REDIRECT] });
    const used = await consented();
    await cairn.oauth.token(form(used.exchange));
    clock = new Date("2026-11-08T09:00:01Z");
    await cairn.oauth.register({ client_name: "Newcomer", redirect_uris: [REDIRECT] });
    const ask = (clientId: string) =>
      cairn.oauth.checkAuthorize(form({ client_id: clientId, redirect_uri: REDIRECT })).then((c) => (c.ok ? "ok" : c.error.error));
    expect(await ask(idle.client_id)).toBe("invalid_client");
    expect(await ask(used.client.client_id)).toBe("invalid_request");
  });
});
