import { fullReceipt } from "@cairn/core/testing";
import { describe, expect, it } from "vitest";
import { safeNext } from "../routes/auth.js";
import { formTokenIn, jar, signIn, useWeb } from "./helpers.js";

/** Each of these, as a browser reads it, leaves the site or breaks the Location header. */
const HOSTILE = ["/\t/evil.example/x", "/\n/x", "/\r\n/x", "/\\evil.example", "/x\\y", "//evil.example", "/\u0000/x", "https://evil.example/"];

describe("the web's next parameter", () => {
  const fx = useWeb();

  it.each(HOSTILE.map((n) => [JSON.stringify(n), n]))("falls back to / for %s", (_shown, next) => {
    expect(safeNext(next)).toBe("/");
  });

  it("keeps a path on this site with its query", () => {
    expect(safeNext("/a/art_x?state=open&q=%09")).toBe("/a/art_x?state=open&q=%09");
  });

  it("GET /signin?next=/%09/evil.example/x answers a Location on this origin, signed in and out", async () => {
    const sam = await fx.world.user("sam");
    const signedOut = await (await fx.app.request("/signin?next=/%09/evil.example/x")).text();
    expect(signedOut).toContain('name="next" value="/"');
    const b = await signIn(fx.app, sam);
    const res = await b.request("/signin?next=/%09/evil.example/x");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
  });

  it.each([
    ["TAB", "/\t/evil.example/x"],
    ["LF", "/\n/x"],
    ["CR", "/\r/x"],
    ["backslash", "/\\evil.example"],
  ])("signing in with a %s in next redirects to / and sets the cookie", async (_name, next) => {
    const sam = await fx.world.user("sam");
    const b = jar(fx.app);
    const html = await (await b.request("/signin")).text();
    const res = await b.request("/signin", { method: "POST", form: { token: sam.token, csrf: formTokenIn(html), next } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    expect(b.cookies.has("cairn_session")).toBe(true);
  });

  it("an acknowledgement with a LF in next is stored once and redirects to /, not a 500", async () => {
    const sam = await fx.world.user("sam");
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ changed: "A receipt acknowledged with a hostile next" }));
    const b = await signIn(fx.app, sam);
    const inbox = await (await b.request("/inbox")).text();
    const res = await b.request(`/a/${asks.id}/acknowledge`, { method: "POST", form: { csrf: formTokenIn(inbox), next: "/\n/x" } });
    expect(res.status).toBe(303);
    // The safe fallback, with the acknowledgement's confirmation.
    expect(res.headers.get("location")).toBe("/?done=acknowledged");
  });
});
