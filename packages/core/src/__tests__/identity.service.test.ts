import { describe, expect, it } from "vitest";
import type { CairnError } from "../errors.js";
import { authenticate } from "../identity/tokens.js";
import { bootstrapAdmin } from "../identity/users.js";
import { DRIVERS } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

describe.each(DRIVERS)("identity on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("bootstraps the admin only on an empty database", async () => {
    expect(fx.world.admin.principal.user.is_admin).toBe(true);
    expect(await bootstrapAdmin(fx.store)).toBeNull();
  });

  it("stores tokens hashed: the token text is nowhere in the database", async () => {
    const sam = await fx.world.user("sam");
    const rows = await fx.store.query<{ dump: string }>("select row_to_json(t)::text as dump from tokens t");
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.some((r) => r.dump.includes(sam.token))).toBe(false);
  });

  it("derives the actor from the token: name, kind and user", async () => {
    const sam = await fx.world.user("sam");
    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    const principal = await authenticate(fx.store, agent.token);
    expect(principal?.token).toMatchObject({ name: "claude", kind: "agent" });
    expect(principal?.user.name).toBe(sam.name);
  });

  it("lets only admins create users or mint tokens for others", async () => {
    const sam = await fx.world.user("sam");
    const other = await fx.world.user("other");
    const e1 = await fx.world.cairn.invoke("user_create", sam.ctx(), { name: "mallory" }).catch((e: CairnError) => e);
    expect((e1 as CairnError).code).toBe("forbidden");
    const e2 = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "x", kind: "agent", user: other.name }).catch((e: CairnError) => e);
    expect((e2 as CairnError).code).toBe("forbidden");
    const minted = await fx.world.cairn.invoke("token_create", fx.world.cairn.context(fx.world.admin.principal, "rest"), {
      name: "ops",
      kind: "agent",
      user: other.name,
    });
    expect(minted.user).toBe(other.name);
  });

  it("refuses a taken user name with the field named", async () => {
    const sam = await fx.world.user("sam");
    const err = await fx.world.cairn
      .invoke("user_create", fx.world.cairn.context(fx.world.admin.principal, "rest"), { name: sam.name })
      .catch((e: CairnError) => e);
    expect((err as CairnError).issues).toEqual([{ field: "name", reason: "is already taken" }]);
  });

  it("does not authenticate unknown tokens", async () => {
    expect(await authenticate(fx.store, "cairn_nope")).toBeNull();
    expect(await authenticate(fx.store, "")).toBeNull();
  });
});
