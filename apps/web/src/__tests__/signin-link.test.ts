import { minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { jar, useWeb } from "./helpers.js";

const pathOf = (url: string) => new URL(url).pathname;

/** The page's sign-in form token: the link is used only by posting it back. */
const csrfIn = (page: string) => page.match(/name="csrf" value="([^"]+)"/)?.[1] ?? "";

describe("/signin/link/:code, the landing of `cairn open` (SPEC §22, §24)", () => {
  const fx = useWeb();

  it("a GET (a person, or a chat app's preview) shows one 'Sign in as NAME' button and spends nothing; the POST signs in once", async () => {
    const sam = await fx.world.user("sam");
    const link = await fx.world.cairn.invoke("signin_link_create", sam.ctx("cli"), {});
    // A preview fetches it first, with no cookies: the link survives.
    const preview = await fx.app.request(pathOf(link.url));
    expect(preview.status).toBe(200);
    expect(preview.headers.getSetCookie().some((c) => c.startsWith("cairn_session="))).toBe(false);
    const b = jar(fx.app);
    const first = await b.request(pathOf(link.url));
    const again = await b.request(pathOf(link.url));
    const page = await again.text();
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(page.match(/<button[^>]*>[^<]*<\/button>/g)).toEqual([`<button type="submit">Sign in as ${sam.name}</button>`]);
    expect(page).not.toContain(pathOf(link.url).split("/").at(-1));
    expect(again.headers.get("cache-control")).toBe("private, no-store");
    expect(again.headers.get("referrer-policy")).toBe("no-referrer");

    const res = await b.request(pathOf(link.url), { method: "POST", form: { csrf: csrfIn(page) } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.getSetCookie().find((c) => c.startsWith("cairn_session="))).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/);
    expect(await (await b.request("/")).text()).toContain(`Signed in as <strong>${sam.name}</strong>`);

    // Used: a second POST, and any later GET, get the plain page saying so.
    const second = await b.request(pathOf(link.url), { method: "POST", form: { csrf: csrfIn(page) } });
    expect(second.status).not.toBe(303);
    expect(second.headers.getSetCookie().some((c) => c.startsWith("cairn_session="))).toBe(false);
    const spent = await jar(fx.app).request(pathOf(link.url));
    expect(spent.status).toBe(410);
    const text = await spent.text();
    expect(text).toContain("This sign-in link has been used or has expired");
    expect(text).toContain("Run <code>cairn open</code> again");
  });

  it("lands on the artifact it names", async () => {
    const sam = await fx.world.user("sam");
    const made = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "landing" }));
    const link = await fx.world.cairn.invoke("signin_link_create", sam.ctx(), { id: made.id });
    const b = jar(fx.app);
    const page = await (await b.request(pathOf(link.url))).text();
    const res = await b.request(pathOf(link.url), { method: "POST", form: { csrf: csrfIn(page) } });
    expect(res.headers.get("location")).toBe(`/a/${made.id}`);
  });

  it("is not spent by a HEAD, a POST another site sent or one without the page's form token; an unknown code is the same plain page", async () => {
    const sam = await fx.world.user("sam");
    const link = await fx.world.cairn.invoke("signin_link_create", sam.ctx(), {});
    expect((await fx.app.request(pathOf(link.url), { method: "HEAD" })).status).toBe(200);
    const b = jar(fx.app);
    const page = await (await b.request(pathOf(link.url))).text();
    const forged = await b.request(pathOf(link.url), { method: "POST", form: { csrf: csrfIn(page) }, headers: { "sec-fetch-site": "cross-site" } });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("Another site sent your browser here, so the link was not used.");
    expect((await jar(fx.app).request(pathOf(link.url), { method: "POST", form: { csrf: csrfIn(page) } })).status).toBe(403);
    const own = await b.request(pathOf(link.url), { method: "POST", form: { csrf: csrfIn(page) }, headers: { "sec-fetch-site": "same-origin" } });
    expect(own.status).toBe(303);
    const unknown = await jar(fx.app).request(`/signin/link/${"A".repeat(43)}`);
    expect(unknown.status).toBe(410);
    expect((await jar(fx.app).request("/signin/link/%3Cscript%3E")).status).toBe(410);
  });
});
