import { minimalReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { jar, useWeb } from "./helpers.js";

const pathOf = (url: string) => new URL(url).pathname;

describe("GET /signin/link/:code, the landing of `cairn open` (SPEC §22)", () => {
  const fx = useWeb();

  it("signs in and lands on the bin, once; the second visit gets a plain page saying the link is spent", async () => {
    const sam = await fx.world.user("sam");
    const link = await fx.world.cairn.invoke("signin_link_create", sam.ctx("cli"), {});
    const b = jar(fx.app);
    const res = await b.request(pathOf(link.url));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.getSetCookie().find((c) => c.startsWith("cairn_session="))).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/);
    expect(await (await b.request("/")).text()).toContain(`Signed in as <strong>${sam.name}</strong>`);

    const again = await jar(fx.app).request(pathOf(link.url));
    expect(again.status).toBe(410);
    const page = await again.text();
    expect(page).toContain("This sign-in link has been used or has expired");
    expect(page).toContain("Run <code>cairn open</code> again");
    expect(again.headers.getSetCookie().some((c) => c.startsWith("cairn_session="))).toBe(false);
    expect(again.headers.get("cache-control")).toBe("private, no-store");
    expect(again.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("lands on the artifact it names", async () => {
    const sam = await fx.world.user("sam");
    const made = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "landing" }));
    const link = await fx.world.cairn.invoke("signin_link_create", sam.ctx(), { id: made.id });
    const res = await jar(fx.app).request(pathOf(link.url));
    expect(res.headers.get("location")).toBe(`/a/${made.id}`);
  });

  it("is not spent by a HEAD (a link checker) or a visit another site sent, and an unknown code is the same plain page", async () => {
    const sam = await fx.world.user("sam");
    const link = await fx.world.cairn.invoke("signin_link_create", sam.ctx(), {});
    expect((await fx.app.request(pathOf(link.url), { method: "HEAD" })).status).toBe(200);
    const forged = await jar(fx.app).request(pathOf(link.url), { headers: { "sec-fetch-site": "cross-site" } });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("Another site sent your browser here, so the link was not used.");
    const own = await jar(fx.app).request(pathOf(link.url), { headers: { "sec-fetch-site": "none" } });
    expect(own.status).toBe(303);
    const unknown = await jar(fx.app).request(`/signin/link/${"A".repeat(43)}`);
    expect(unknown.status).toBe(410);
    expect((await jar(fx.app).request("/signin/link/%3Cscript%3E")).status).toBe(410);
  });
});
