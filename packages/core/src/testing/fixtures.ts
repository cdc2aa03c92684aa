import { randomBytes } from "node:crypto";
import { createCairn, type Cairn } from "../cairn.js";
import type { Principal, ServiceContext, Surface } from "../context.js";
import { authenticate } from "../identity/tokens.js";
import { bootstrapAdmin, createUser } from "../identity/users.js";
import type { Store } from "../store/port.js";

export const TEST_PUBLIC_URL = "http://cairn.test";

export interface TestWorld {
  cairn: Cairn;
  admin: { token: string; principal: Principal };
  /** Creates a user with a unique name and returns its token and principal. */
  user(prefix?: string): Promise<{ name: string; token: string; principal: Principal; ctx(surface?: Surface): ServiceContext }>;
}

/** A core bound to the store, with an administrator and a way to mint users. */
export async function createTestWorld(store: Store, now?: () => Date): Promise<TestWorld> {
  const cairn = createCairn(store, { publicUrl: TEST_PUBLIC_URL }, now);
  const adminToken = (await bootstrapAdmin(store)) ?? raise("store already had users");
  const adminPrincipal = (await authenticate(store, adminToken.token)) ?? raise("admin token did not authenticate");
  return {
    cairn,
    admin: { token: adminToken.token, principal: adminPrincipal },
    async user(prefix = "user") {
      const name = `${prefix}-${randomBytes(4).toString("hex")}`;
      const created = await createUser(cairn.context(adminPrincipal, "rest"), { name });
      const principal = (await authenticate(store, created.token.token)) ?? raise("user token did not authenticate");
      return { name, token: created.token.token, principal, ctx: (surface: Surface = "rest") => cairn.context(principal, surface) };
    },
  };
}

function raise(message: string): never {
  throw new Error(message);
}
