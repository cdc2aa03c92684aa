import { randomBytes } from "node:crypto";
import { authenticate } from "../identity/tokens.js";
import type { TestUser, TestWorld } from "./fixtures.js";

/**
 * A principal carries its teams as of authentication (each request re-authenticates),
 * so after a membership change a test takes a fresh one, as the next request would.
 */
export async function reauthenticate(world: TestWorld, user: TestUser): Promise<TestUser> {
  const principal = await authenticate(world.store, user.token);
  if (!principal) throw new Error(`token of ${user.name} no longer authenticates`);
  return { ...user, principal, ctx: (surface = "rest") => world.cairn.context(principal, surface) };
}

/** Creates a team through core with `creator` and `members` in it; returns the team name and fresh users. */
export async function createTestTeam<U extends TestUser[]>(
  world: TestWorld,
  creator: TestUser,
  ...members: U
): Promise<{ name: string; creator: TestUser; members: U }> {
  const name = `team-${randomBytes(4).toString("hex")}`;
  await world.cairn.invoke("team_create", creator.ctx(), { name });
  const fresh = await reauthenticate(world, creator);
  // A member's add is an invitation (SPEC §37): each invitee accepts, as a person would.
  for (const m of members) {
    await world.cairn.invoke("team_member_add", fresh.ctx(), { name, user: m.name });
    await world.cairn.invoke("team_invitation_accept", m.ctx(), { name });
  }
  const freshMembers = (await Promise.all(members.map((m) => reauthenticate(world, m)))) as U;
  return { name, creator: fresh, members: freshMembers };
}
