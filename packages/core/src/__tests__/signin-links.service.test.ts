import { describe, expect, it } from "vitest";
import { DRIVERS, minimalReceipt, TEST_PUBLIC_URL } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

let clock = new Date("2026-11-01T09:00:00Z");
const codeOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

describe.each(DRIVERS)("one-time sign-in links on %s (SPEC §22)", (driver) => {
  const fx = useTestWorld(driver, () => clock);

  it("links to the bin with a 256-bit code, valid five minutes, and opens a session for the token that asked", async () => {
    clock = new Date("2026-11-01T09:00:00Z");
    const sam = await fx.world.user("sam");
    const link = await fx.world.cairn.invoke("signin_link_create", sam.ctx("cli"), {});
    expect(link.url).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/signin/link/[A-Za-z0-9_-]{43}$`));
    expect(Buffer.from(codeOf(link.url), "base64url")).toHaveLength(32);
    expect(link).toMatchObject({ expires_at: "2026-11-01T09:05:00.000Z", next: "/" });

    const followed = await fx.world.cairn.sessions.follow(codeOf(link.url));
    expect(followed?.next).toBe("/");
    const principal = await fx.world.cairn.sessions.authenticate(followed?.session.secret ?? "");
    expect(principal?.token.id).toBe(sam.principal.token.id);
  });

  it("works once: the second follower gets nothing, and two at once only one", async () => {
    const sam = await fx.world.user("sam");
    const once = codeOf((await fx.world.cairn.invoke("signin_link_create", sam.ctx(), {})).url);
    expect(await fx.world.cairn.sessions.follow(once)).not.toBeNull();
    expect(await fx.world.cairn.sessions.follow(once)).toBeNull();

    const raced = codeOf((await fx.world.cairn.invoke("signin_link_create", sam.ctx(), {})).url);
    const both = await Promise.all([fx.world.cairn.sessions.follow(raced), fx.world.cairn.sessions.follow(raced)]);
    expect(both.filter((f) => f !== null)).toHaveLength(1);
  });

  it("stops opening after five minutes, and when its token is revoked", async () => {
    clock = new Date("2026-11-01T09:00:00Z");
    const sam = await fx.world.user("sam");
    const stale = codeOf((await fx.world.cairn.invoke("signin_link_create", sam.ctx(), {})).url);
    clock = new Date("2026-11-01T09:05:00Z");
    expect(await fx.world.cairn.sessions.follow(stale)).toBeNull();
    clock = new Date("2026-11-01T09:04:59Z");
    const fresh = codeOf((await fx.world.cairn.invoke("signin_link_create", sam.ctx(), {})).url);
    await fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: sam.principal.token.id });
    expect(await fx.world.cairn.sessions.follow(fresh)).toBeNull();
    clock = new Date("2026-11-01T09:00:00Z");
  });

  it("lands on an artifact the caller may read, and refuses one it may not as not found", async () => {
    const sam = await fx.world.user("sam");
    const dana = await fx.world.user("dana");
    const made = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const link = await fx.world.cairn.invoke("signin_link_create", sam.ctx(), { id: made.id });
    expect(link.next).toBe(`/a/${made.id}`);
    expect((await fx.world.cairn.sessions.follow(codeOf(link.url)))?.next).toBe(`/a/${made.id}`);
    expect((await rejectionOf(fx.world.cairn.invoke("signin_link_create", dana.ctx(), { id: made.id }))).code).toBe("not_found");
  });

  it("is refused to an agent token (403), stores only the code's hash, and ignores codes of another shape", async () => {
    const sam = await fx.world.user("sam");
    const minted = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    const agent = await fx.world.cairn.authenticate(minted.token);
    const refused = await rejectionOf(fx.world.cairn.invoke("signin_link_create", fx.world.cairn.context(agent as never, "mcp"), {}));
    expect(refused.code).toBe("forbidden");
    expect(refused.message).toContain("sessions:write");

    const code = codeOf((await fx.world.cairn.invoke("signin_link_create", sam.ctx(), {})).url);
    const rows = await fx.store.query<{ dump: string }>("select row_to_json(l)::text as dump from signin_links l");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.dump.includes(code))).toBe(false);
    for (const odd of ["", "x", `${code}x`, code.slice(1), "'; drop table signin_links; --"]) expect(await fx.world.cairn.sessions.follow(odd)).toBeNull();
    expect(await fx.world.cairn.sessions.follow(code)).not.toBeNull();
  });
});
