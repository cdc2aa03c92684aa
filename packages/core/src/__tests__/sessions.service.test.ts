import { describe, expect, it } from "vitest";
import { DRIVERS } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

let clock = new Date("2026-11-01T09:00:00Z");

describe.each(DRIVERS)("web sessions on %s", (driver) => {
  const fx = useTestWorld(driver, () => clock);

  it("opens a session with a human token and resolves it to the token's principal", async () => {
    const sam = await fx.world.user("sam");
    const opened = await fx.world.cairn.sessions.open(sam.token);
    expect(opened.secret).toMatch(/^cairn_session_/);
    expect(opened.expires_at).toBe("2026-11-08T09:00:00.000Z");
    const principal = await fx.world.cairn.sessions.authenticate(opened.secret);
    expect(principal?.user.name).toBe(sam.name);
    expect(principal?.token.id).toBe(sam.principal.token.id);
  });

  it("stores only the secret's hash", async () => {
    const sam = await fx.world.user("sam");
    const { secret } = await fx.world.cairn.sessions.open(sam.token);
    const rows = await fx.store.query<{ dump: string }>("select row_to_json(s)::text as dump from sessions s");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.dump.includes(secret) || r.dump.includes(sam.token))).toBe(false);
  });

  it("refuses an unknown token and an agent token", async () => {
    expect((await rejectionOf(fx.world.cairn.sessions.open("cairn_nope"))).code).toBe("unauthenticated");
    const sam = await fx.world.user("sam");
    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    const refused = await rejectionOf(fx.world.cairn.sessions.open(agent.token));
    expect(refused.code).toBe("forbidden");
    expect(refused.message).toMatch(/human token/);
  });

  it("ends with sign-out, with expiry, and when its token is revoked", async () => {
    const sam = await fx.world.user("sam");
    const a = await fx.world.cairn.sessions.open(sam.token);
    await fx.world.cairn.sessions.close(a.secret);
    expect(await fx.world.cairn.sessions.authenticate(a.secret)).toBeNull();

    const b = await fx.world.cairn.sessions.open(sam.token);
    clock = new Date("2026-11-08T09:00:00Z");
    expect(await fx.world.cairn.sessions.authenticate(b.secret)).toBeNull();
    clock = new Date("2026-11-01T09:00:00Z");
    expect((await fx.world.cairn.sessions.authenticate(b.secret))?.user.name).toBe(sam.name);

    await fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: sam.principal.token.id });
    expect(await fx.world.cairn.sessions.authenticate(b.secret)).toBeNull();
    expect((await rejectionOf(fx.world.cairn.sessions.open(sam.token))).code).toBe("unauthenticated");
  });

  it("ignores secrets it never issued", async () => {
    expect(await fx.world.cairn.sessions.authenticate("")).toBeNull();
    expect(await fx.world.cairn.sessions.authenticate("cairn_session_forged")).toBeNull();
    expect(await fx.world.cairn.sessions.authenticate(`cairn_session_${"x".repeat(500)}`)).toBeNull();
    await fx.world.cairn.sessions.close("not-a-session");
  });

  it("reads a share link through share_read with the core's clock", async () => {
    const sam = await fx.world.user("sam");
    const created = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "Notes", body: "hello" });
    const token = created.url.split("/s/")[1] ?? "";
    const ctx = fx.world.cairn.linkContext("web");
    expect((await fx.world.cairn.invokeLink("share_read", ctx, { token })).id).toBe(created.id);
    expect((await rejectionOf(fx.world.cairn.invokeLink("share_read", ctx, { token: "nope" }))).code).toBe("not_found");
    expect((await rejectionOf(fx.world.cairn.invokeLink("share_read", ctx, {}))).code).toBe("validation_failed");
    clock = new Date("2026-12-01T09:00:00Z");
    try {
      expect((await rejectionOf(fx.world.cairn.invokeLink("share_read", ctx, { token }))).code).toBe("gone");
    } finally {
      clock = new Date("2026-11-01T09:00:00Z");
    }
  });
});
