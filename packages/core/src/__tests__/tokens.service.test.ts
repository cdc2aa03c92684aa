import { describe, expect, it } from "vitest";
import { authenticate } from "../identity/tokens.js";
import { bootstrapAdmin } from "../identity/users.js";
import { DRIVERS, openTestStore } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

describe.each(DRIVERS)("token list and revoke on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("lists the caller's tokens newest first, never their values, marking the one in use", async () => {
    const sam = await fx.world.user("sam");
    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    const page = await fx.world.cairn.invoke("token_list", sam.ctx(), {});
    expect(page.items.map((t) => [t.name, t.kind, t.current, t.revoked_at])).toEqual([
      ["claude", "agent", false, null],
      ["initial", "human", true, null],
    ]);
    expect(JSON.stringify(page)).not.toContain(agent.token);
    expect(page.items[0]).toMatchObject({ id: agent.id, user: sam.name });
  });

  it("pages with a cursor", async () => {
    const sam = await fx.world.user("sam");
    for (const name of ["a", "b", "c"]) await fx.world.cairn.invoke("token_create", sam.ctx(), { name, kind: "agent" });
    const first = await fx.world.cairn.invoke("token_list", sam.ctx(), { limit: 2 });
    expect(first.items).toHaveLength(2);
    const second = await fx.world.cairn.invoke("token_list", sam.ctx(), { limit: 2, cursor: first.next_cursor ?? "" });
    expect(second.next_cursor).toBeNull();
    // Newest first by id; tokens made in the same millisecond have no order between them.
    const ids = [...first.items, ...second.items].map((t) => t.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect([...first.items, ...second.items].map((t) => t.name).sort()).toEqual(["a", "b", "c", "initial"]);
  });

  it("lets only administrators list another user's tokens", async () => {
    const sam = await fx.world.user("sam");
    const dana = await fx.world.user("dana");
    expect((await rejectionOf(fx.world.cairn.invoke("token_list", sam.ctx(), { user: dana.name }))).code).toBe("forbidden");
    const admin = fx.world.cairn.context(fx.world.admin.principal, "rest");
    const listed = await fx.world.cairn.invoke("token_list", admin, { user: dana.name });
    expect(listed.items.map((t) => t.user)).toEqual([dana.name]);
  });

  it("revokes: the token no longer authenticates, and revoking again changes nothing", async () => {
    const sam = await fx.world.user("sam");
    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "ci", kind: "agent" });
    expect(await authenticate(fx.store, agent.token)).not.toBeNull();
    const revoked = await fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: agent.id });
    expect(revoked).toMatchObject({ id: agent.id, name: "ci", user: sam.name });
    expect(revoked.revoked_at).not.toBeNull();
    expect(await authenticate(fx.store, agent.token)).toBeNull();
    const again = await fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: agent.id });
    expect(again.revoked_at).toBe(revoked.revoked_at);
    const [row] = await fx.store.query<{ revoked_by: string }>("select revoked_by from tokens where id = $1", [agent.id]);
    expect(row?.revoked_by).toBe(sam.principal.token.id);
  });

  it("refuses someone else's token as not found; administrators revoke anyone's", async () => {
    const sam = await fx.world.user("sam");
    const dana = await fx.world.user("dana");
    const err = await rejectionOf(fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: dana.principal.token.id }));
    expect(err.code).toBe("not_found");
    expect(err.message).toBe((await rejectionOf(fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: "tok_nope" }))).message);
    const malformed = await rejectionOf(fx.world.cairn.invoke("token_revoke", sam.ctx(), { id: "tok_\u0000x" }));
    expect([malformed.code, malformed.issues?.[0]?.field]).toEqual(["validation_failed", "id"]);
    expect(await authenticate(fx.store, dana.token)).not.toBeNull();
    await fx.world.cairn.invoke("token_revoke", fx.world.cairn.context(fx.world.admin.principal, "rest"), { id: dana.principal.token.id });
    expect(await authenticate(fx.store, dana.token)).toBeNull();
  });
});

describe.each(DRIVERS)("bootstrap on %s", (driver) => {
  it("commits the admin only once its token is kept: a failed write leaves nothing, the next start succeeds", async () => {
    const store = await openTestStore(driver);
    try {
      const failed = await bootstrapAdmin(store, {
        persist: () => Promise.reject(new Error("disk full")),
      }).catch((e: Error) => e);
      expect((failed as Error).message).toBe("disk full");
      const [users] = await store.query<{ n: number }>("select count(*)::int as n from users");
      expect(users?.n).toBe(0);

      let kept = "";
      const made = await bootstrapAdmin(store, {
        persist: async (token) => {
          kept = token.token;
        },
      });
      expect(made?.token).toBe(kept);
      expect((await authenticate(store, kept))?.user).toMatchObject({ name: "admin", is_admin: true });
      expect(await bootstrapAdmin(store, { persist: () => Promise.reject(new Error("not called")) })).toBeNull();
    } finally {
      await store.close();
    }
  });
});
