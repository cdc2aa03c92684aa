import { minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { formTokenIn, jar, signIn, useWeb } from "./helpers.js";

describe("web sign-in, sessions and forms", () => {
  const fx = useWeb();

  it("sends a signed-out visitor of / to the sign-in form instead of a JSON 404", async () => {
    const res = await fx.app.request("/");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/signin");
    const deep = await fx.app.request("/a/art_x?y=1");
    expect(deep.headers.get("location")).toBe(`/signin?next=${encodeURIComponent("/a/art_x?y=1")}`);
  });

  it("signs in with a token: httpOnly SameSite=Strict cookie, then the bin, then signs out", async () => {
    const sam = await fx.world.user("sam");
    const b = jar(fx.app);
    const form = await b.request("/signin");
    const html = await form.text();
    expect(html).toContain('<label for="token">Token</label>');
    const res = await b.request("/signin", { method: "POST", form: { token: sam.token, csrf: formTokenIn(html), next: "/doctor" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/doctor");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("cairn_session="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    expect(cookie).not.toContain(sam.token);
    const bin = await b.request("/");
    expect(bin.status).toBe(200);
    const binHtml = await bin.text();
    expect(binHtml).toContain(`Signed in as <strong>${sam.name}</strong>`);
    const out = await b.request("/signout", { method: "POST", form: { csrf: formTokenIn(binHtml) } });
    expect(out.status).toBe(303);
    expect((await b.request("/")).status).toBe(303);
  });

  it("marks the cookie Secure when served over https", async () => {
    const sam = await fx.world.user("sam");
    const b = jar(fx.app);
    const html = await (await b.request("https://cairn.example/signin")).text();
    const res = await b.request("https://cairn.example/signin", { method: "POST", form: { token: sam.token, csrf: formTokenIn(html) } });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-cairn_session="));
    expect(cookie).toMatch(/Secure/);
    const proxied = jar(fx.app);
    const via = { "x-forwarded-proto": "https" };
    const form = await (await proxied.request("/signin", { headers: via })).text();
    const behindProxy = await proxied.request("/signin", { method: "POST", headers: via, form: { token: sam.token, csrf: formTokenIn(form) } });
    expect(behindProxy.headers.getSetCookie().find((c) => c.startsWith("__Host-cairn_session="))).toMatch(/Secure/);
  });

  it("refuses a bad token, an agent token, a missing form token and a cross-site post", async () => {
    const sam = await fx.world.user("sam");
    const b = jar(fx.app);
    const csrf = formTokenIn(await (await b.request("/signin")).text());
    const bad = await b.request("/signin", { method: "POST", form: { token: "cairn_wrong", csrf } });
    expect(bad.status).toBe(401);
    expect(await bad.text()).toContain("That token is not valid");
    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    expect((await b.request("/signin", { method: "POST", form: { token: agent.token, csrf } })).status).toBe(403);
    expect((await b.request("/signin", { method: "POST", form: { token: sam.token, csrf: "forged" } })).status).toBe(403);
    const crossSite = await b.request("/signin", { method: "POST", headers: { "sec-fetch-site": "cross-site" }, form: { token: sam.token, csrf } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie().some((c) => c.startsWith("cairn_session="))).toBe(false);
  });

  it("refuses a sign-out without the session's form token", async () => {
    const sam = await fx.world.user("sam");
    const b = await signIn(fx.app, sam);
    expect((await b.request("/signout", { method: "POST", form: { csrf: "x" } })).status).toBe(403);
    const forged = await b.request("/signout", { method: "POST", headers: { "sec-fetch-site": "cross-site" }, form: { csrf: "x" } });
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie()).toEqual([]);
    expect((await b.request("/")).status).toBe(200);
  });

  it("ends the session when its token is revoked", async () => {
    const sam = await fx.world.user("sam");
    const b = await signIn(fx.app, sam);
    expect((await b.request("/")).status).toBe(200);
    await fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: sam.principal.token.id });
    expect((await b.request("/")).status).toBe(303);
  });

  it("gives an outsider's session the same 404 as a missing id", async () => {
    const sam = await fx.world.user("sam");
    const eve = await fx.world.user("eve");
    const created = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const own = await signIn(fx.app, sam);
    expect((await own.request(`/a/${created.id}`)).status).toBe(200);
    const outsider = await signIn(fx.app, eve);
    const res = await outsider.request(`/a/${created.id}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(created.title);
    expect((await outsider.request(`/a/${created.id}/raw`)).status).toBe(404);
    expect((await outsider.request("/a/art_00000000000000000000000000")).status).toBe(404);
  });

  it("sends the security headers on every page", async () => {
    for (const path of ["/signin", "/", "/s/nope", "/assets/cairn.css"]) {
      const res = await fx.app.request(path);
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("content-security-policy"), path).toContain("default-src 'none'");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
    }
  });
});
