import { randomBytes } from "node:crypto";
import { type Cairn, type CairnOptions, createCairn } from "../cairn.js";
import type { Principal, RequestOptions, ServiceContext, Surface } from "../context.js";
import { authenticate } from "../identity/tokens.js";
import { bootstrapAdmin, createUser } from "../identity/users.js";
import type { Store } from "../store/port.js";

export const TEST_PUBLIC_URL = "http://cairn.test";

export interface TestUser {
  name: string;
  token: string;
  principal: Principal;
  ctx(surface?: Surface, request?: RequestOptions): ServiceContext;
  /** Re-reads the principal (e.g. after a team membership changed). */
  refresh(): Promise<void>;
}

export interface TestWorld {
  cairn: Cairn;
  /** The store the world's core runs on (a core does not hand out its store). */
  store: Store;
  admin: { token: string; principal: Principal };
  /** Creates a user with a unique name and returns its token and principal. */
  user(prefix?: string): Promise<TestUser>;
  /** Creates a team (the first member creates it) with these members, refreshing their principals. Returns `team:NAME`. */
  team(members: readonly TestUser[], prefix?: string): Promise<string>;
}

/** A core bound to the store, with an administrator and a way to mint users and teams. */
export async function createTestWorld(store: Store, options?: CairnOptions | (() => Date)): Promise<TestWorld> {
  const cairn = createCairn(store, { publicUrl: TEST_PUBLIC_URL }, options);
  const adminToken = (await bootstrapAdmin(store)) ?? raise("store already had users");
  const adminPrincipal = (await authenticate(store, adminToken.token)) ?? raise("admin token did not authenticate");
  return {
    cairn,
    store,
    admin: { token: adminToken.token, principal: adminPrincipal },
    async user(prefix = "user") {
      const name = `${prefix}-${randomBytes(4).toString("hex")}`;
      const created = await createUser(cairn.context(adminPrincipal, "rest"), { name });
      const token = created.token.token;
      const user: TestUser = {
        name,
        token,
        principal: (await authenticate(store, token)) ?? raise("user token did not authenticate"),
        ctx: (surface: Surface = "rest", request?: RequestOptions) => cairn.context(user.principal, surface, request),
        async refresh() {
          user.principal = (await authenticate(store, token)) ?? raise("user token did not authenticate");
        },
      };
      return user;
    },
    async team(members, prefix = "team") {
      const [creator, ...others] = members;
      if (!creator) throw new Error("a team needs at least one member");
      const name = `${prefix}-${randomBytes(4).toString("hex")}`;
      await cairn.invoke("team_create", creator.ctx(), { name });
      await creator.refresh(); // a principal carries its teams as of authentication
      // A member's add is an invitation (SPEC §37): each invitee accepts, as a person would.
      for (const m of others) {
        await cairn.invoke("team_member_add", creator.ctx(), { name, user: m.name });
        await cairn.invoke("team_invitation_accept", m.ctx(), { name });
      }
      for (const m of members) await m.refresh();
      return `team:${name}`;
    },
  };
}

function raise(message: string): never {
  throw new Error(message);
}
