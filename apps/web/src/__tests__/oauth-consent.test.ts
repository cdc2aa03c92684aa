import { createHash } from "node:crypto";
import { TEST_PUBLIC_URL } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { formTokenIn, signIn, useWeb } from "./helpers.js";

const REDIRECT = "https://host.example/callback";
const challenge = createHash("sha256").update("v".repeat(43)).digest("base64url");

/** The consent form's hidden fields, as a browser would post them back. */
const hiddenFields = (html: string) =>
  Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], (m[2] ?? "").replaceAll("&amp;", "&")]));

describe("the authorization endpoint and consent page (SPEC §26)", () => {
  const fx = useWeb();

  async function request() {
    const client = await fx.world.cairn.oauth.register({ client_name: "Host <b>bold</b>", redirect_uris: [REDIRECT] });
    const query = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "st&1",
      resource: `${TEST_PUBLIC_URL}/mcp`,
    });
    return { client, path: `/oauth/authorize?${query}` };
  }

  it("sends a signed-out person to the sign-in form and back; signed in, shows the escaped client name and a CSP that lets the answer reach the app", async () => {
    const { path } = await request();
    const out = await fx.app.request(path);
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe(`/signin?next=${encodeURIComponent(path)}`);

    const sam = await fx.world.user("sam");
    const b = await signIn(fx.app, sam);
    const page = await b.request(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Connect Host &lt;b&gt;bold&lt;/b&gt; to Cairn?");
    expect(html).toContain("host.example");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self' https://host.example;");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });

  it("refuses an answer without the form token, from another site, or with the request changed on the way", async () => {
    const { path } = await request();
    const sam = await fx.world.user("sam");
    const b = await signIn(fx.app, sam);
    const html = await (await b.request(path)).text();
    const fields = hiddenFields(html);
    expect(fields.csrf).toBe(formTokenIn(html));

    const noToken = await b.request("/oauth/authorize", { method: "POST", form: { ...fields, csrf: "guess", decision: "allow" } });
    expect(noToken.status).toBe(403);
    const crossSite = await b.request("/oauth/authorize", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
      form: { ...fields, decision: "allow" },
    });
    expect(crossSite.status).toBe(403);
    const elsewhere = await b.request("/oauth/authorize", {
      method: "POST",
      form: { ...fields, redirect_uri: "https://attacker.example/cb", decision: "allow" },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get("location")).toBeNull();
    const undecided = await b.request("/oauth/authorize", { method: "POST", form: { ...fields, decision: "maybe" } });
    expect(undecided.status).toBe(400);

    const allowed = await b.request("/oauth/authorize", { method: "POST", form: { ...fields, decision: "allow" } });
    expect(allowed.status).toBe(303);
    const to = new URL(allowed.headers.get("location") as string);
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect(to.searchParams.get("state")).toBe("st&1");
    expect(to.searchParams.get("iss")).toBe(TEST_PUBLIC_URL);
    expect(to.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("a repeated parameter and a plain challenge go back to the app as invalid_request; an unknown client stays on Cairn's page", async () => {
    const { path } = await request();
    const repeated = await fx.app.request(`${path}&state=again`);
    expect(repeated.status).toBe(302);
    expect(new URL(repeated.headers.get("location") as string).searchParams.get("error")).toBe("invalid_request");
    const unknown = await fx.app.request(path.replace(/client_id=[^&]+/, "client_id=cli_nobody"));
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("client_id is not a client of this server.");
  });
});
