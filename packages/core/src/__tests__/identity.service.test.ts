import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CairnError } from "../errors.js";
import { authenticate } from "../identity/tokens.js";
import { bootstrapAdmin } from "../identity/users.js";
import { createTestWorld, DRIVERS, openTestStore, type TestWorld } from "../testing/index.js";
import type { Store } from "../store/port.js";

describe.each(DRIVERS)("identity on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  beforeAll(async () => {
    store = await openTestStore(driver);
    world = await createTestWorld(store);
  });
  afterAll(async () => store?.close());

  it("bootstraps the admin only on an empty database", async () => {
    expect(world.admin.principal.user.is_admin).toBe(true);
    expect(await bootstrapAdmin(store)).toBeNull();
  });

  it("stores tokens hashed: the token text is nowhere in the database", async () => {
    const sam = await world.user("sam");
    const rows = await store.query<{ dump: string }>("select row_to_json(t)::text as dump from tokens t");
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.some((r) => r.dump.includes(sam.token))).toBe(false);
  });

  it("derives the actor from the token: name, kind and user", async () => {
    const sam = await world.user("sam");
    const agent = await world.cairn.invoke("token_create", sam.ctx(), { name: "claude", kind: "agent" });
    const principal = await authenticate(store, agent.token);
    expect(principal?.token).toMatchObject({ name: "claude", kind: "agent" });
    expect(principal?.user.name).toBe(sam.name);
  });

  it("lets only admins create users or mint tokens for others", async () => {
    const sam = await world.user("sam");
    const other = await world.user("other");
    const e1 = await world.cairn.invoke("user_create", sam.ctx(), { name: "mallory" }).catch((e: CairnError) => e);
    expect((e1 as CairnError).code).toBe("forbidden");
    const e2 = await world.cairn
      .invoke("token_create", sam.ctx(), { name: "x", kind: "agent", user: other.name })
      .catch((e: CairnError) => e);
    expect((e2 as CairnError).code).toBe("forbidden");
    const minted = await world.cairn.invoke("token_create", world.cairn.context(world.admin.principal, "rest"), {
      name: "ops",
      kind: "agent",
      user: other.name,
    });
    expect(minted.user).toBe(other.name);
  });

  it("refuses a taken user name with the field named", async () => {
    const sam = await world.user("sam");
    const err = await world.cairn
      .invoke("user_create", world.cairn.context(world.admin.principal, "rest"), { name: sam.name })
      .catch((e: CairnError) => e);
    expect((err as CairnError).issues).toEqual([{ field: "name", reason: "is already taken" }]);
  });

  it("does not authenticate unknown tokens", async () => {
    expect(await authenticate(store, "cairn_nope")).toBeNull();
    expect(await authenticate(store, "")).toBeNull();
  });
});
