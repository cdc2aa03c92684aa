import { describe, expect, it } from "vitest";
import { createTestTeam, DRIVERS, minimalReceipt, reauthenticate, type TestUser } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

/** SPEC §37: nobody joins a team without saying yes (ADR 0078). */
describe.each(DRIVERS)("team invitations on %s", (driver) => {
  const fx = useTestWorld(driver);
  const invoke = (op: string, as: TestUser, input: Record<string, unknown>) => fx.world.cairn.invoke(op as "team_read", as.ctx(), input as { name: string });
  const eventsOf = async (owner: string) =>
    (await fx.store.query<{ type: string; payload: string }>("select type, payload from events where owner = $1 order by id", [owner])).map((e) => ({
      type: e.type,
      data: JSON.parse(e.payload).data,
    }));

  it("a member's add is an invitation: the invitee reads nothing and cannot be assigned until they accept", async () => {
    const [bob, alice] = [await fx.world.user("bob"), await fx.world.user("alice")];
    const t = await createTestTeam(fx.world, bob);
    const owner = `team:${t.name}`;
    const receipt = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ owner, human_action: "Rotate the key" }));

    const invited = await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: alice.name });
    expect(invited).toMatchObject({ members: [bob.name], invited: [alice.name] });
    const pending = await reauthenticate(fx.world, alice);
    expect(pending.principal.teams).toEqual([]);
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_read", pending.ctx(), { id: receipt.id }))).code).toBe("not_found");
    const assign = await rejectionOf(fx.world.cairn.invoke("artifact_assign", t.creator.ctx(), { id: receipt.id, assignee: alice.name }));
    expect(assign.code).toBe("validation_failed");
    expect(assign.issues?.[0]?.field).toBe("assignee");

    const list = await fx.world.cairn.invoke("team_invitation_list", pending.ctx(), {});
    expect(list.items).toEqual([{ team: owner, state: "invited", invited_by: bob.name, at: expect.any(String) }]);
    const joined = await fx.world.cairn.invoke("team_invitation_accept", pending.ctx(), { name: t.name });
    expect(joined).toMatchObject({ members: [alice.name, bob.name].sort(), invited: [] });
    const member = await reauthenticate(fx.world, alice);
    expect((await fx.world.cairn.invoke("artifact_read", member.ctx(), { id: receipt.id })).id).toBe(receipt.id);
    expect((await fx.world.cairn.invoke("artifact_assign", t.creator.ctx(), { id: receipt.id, assignee: alice.name })).assignee).toBe(alice.name);
    expect((await fx.world.cairn.invoke("team_invitation_list", member.ctx(), {})).items).toEqual([]);

    const by = (u: TestUser) => ({ user: u.name, token_name: expect.any(String) });
    expect((await eventsOf(owner)).filter((e) => e.type.startsWith("team."))).toEqual([
      { type: "team.invited", data: { team: owner, user: alice.name, by: by(bob) } },
      { type: "team.joined", data: { team: owner, user: alice.name, via: "invitation", by: by(alice) } },
    ]);
  });

  it("a name that is no user, a user, and a user who blocked the team get the same answer and the same event", async () => {
    const [bob, alice, carol] = [await fx.world.user("bob"), await fx.world.user("alice"), await fx.world.user("carol")];
    await fx.world.cairn.invoke("team_block", carol.ctx(), { name: "shared-name-blocked" });
    const answers = [];
    for (const name of [alice.name, `ghost-${alice.name.slice(-8)}`, carol.name]) {
      const t = await createTestTeam(fx.world, bob);
      const team = await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: name });
      const events = (await eventsOf(`team:${t.name}`)).map((e) => ({ ...e, data: { ...e.data, team: "T", user: "U" } }));
      answers.push({ members: team.members, invited: team.invited.map((n) => (n === name ? "U" : n)), events });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("a block keeps a team's invitations from reaching the user, leaves the team's view as it was, and unblock lets it invite again", async () => {
    const [bob, alice] = [await fx.world.user("bob"), await fx.world.user("alice")];
    const t = await createTestTeam(fx.world, bob);
    await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: alice.name });
    expect(await fx.world.cairn.invoke("team_block", alice.ctx(), { name: t.name })).toEqual({ team: `team:${t.name}`, state: "blocked", blocked: true });
    expect((await fx.world.cairn.invoke("team_read", t.creator.ctx(), { name: t.name })).invited).toEqual([alice.name]);
    expect((await fx.world.cairn.invoke("team_invitation_list", alice.ctx(), {})).items).toEqual([
      { team: `team:${t.name}`, state: "blocked", invited_by: null, at: expect.any(String) },
    ]);
    expect((await rejectionOf(fx.world.cairn.invoke("team_invitation_accept", alice.ctx(), { name: t.name }))).code).toBe("not_found");
    await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: alice.name });
    expect((await rejectionOf(fx.world.cairn.invoke("team_invitation_accept", alice.ctx(), { name: t.name }))).code).toBe("not_found");

    await fx.world.cairn.invoke("team_unblock", alice.ctx(), { name: t.name });
    expect((await fx.world.cairn.invoke("team_invitation_list", alice.ctx(), {})).items).toEqual([]);
    await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: alice.name });
    expect((await fx.world.cairn.invoke("team_invitation_accept", alice.ctx(), { name: t.name })).members).toContain(alice.name);
  });

  it("a member leaves, and with block the team cannot bring them back; re-adding after a plain leave is a new invitation", async () => {
    const [bob, alice] = [await fx.world.user("bob"), await fx.world.user("alice")];
    const t = await createTestTeam(fx.world, bob, alice);
    const [member] = t.members;
    expect(await fx.world.cairn.invoke("team_leave", member.ctx(), { name: t.name })).toEqual({ team: `team:${t.name}`, state: "left", blocked: false });
    const again = await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: alice.name });
    expect(again).toMatchObject({ members: [bob.name], invited: [alice.name] });
    const back = await fx.world.cairn.invoke("team_invitation_accept", alice.ctx(), { name: t.name });
    expect(back.members).toContain(alice.name);

    const rejoined = await reauthenticate(fx.world, alice);
    expect((await fx.world.cairn.invoke("team_leave", rejoined.ctx(), { name: t.name, block: true })).blocked).toBe(true);
    await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: alice.name });
    expect((await fx.world.cairn.invoke("team_read", t.creator.ctx(), { name: t.name })).members).toEqual([bob.name]);
    expect((await fx.world.cairn.invoke("team_invitation_list", alice.ctx(), {})).items.map((i) => i.state)).toEqual(["blocked"]);
    expect((await rejectionOf(fx.world.cairn.invoke("team_leave", alice.ctx(), { name: t.name }))).code).toBe("not_found");
  });

  it("decline removes the invitation; removing an invited name withdraws it", async () => {
    const [bob, alice, carol] = [await fx.world.user("bob"), await fx.world.user("alice"), await fx.world.user("carol")];
    const t = await createTestTeam(fx.world, bob);
    await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: alice.name });
    expect((await fx.world.cairn.invoke("team_invitation_decline", alice.ctx(), { name: t.name })).state).toBe("declined");
    expect((await fx.world.cairn.invoke("team_read", t.creator.ctx(), { name: t.name })).invited).toEqual([]);
    await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: carol.name });
    const withdrawn = await fx.world.cairn.invoke("team_member_remove", t.creator.ctx(), { name: t.name, user: carol.name });
    expect(withdrawn.invited).toEqual([]);
    expect((await rejectionOf(fx.world.cairn.invoke("team_invitation_accept", carol.ctx(), { name: t.name }))).code).toBe("not_found");
  });

  it("an invitation waits 14 days; an answer after that is a 404", async () => {
    const [bob, alice] = [await fx.world.user("bob"), await fx.world.user("alice")];
    const t = await createTestTeam(fx.world, bob);
    await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: alice.name });
    const later = new Date(Date.now() + 15 * 86_400_000);
    const ctx = { ...alice.ctx(), now: () => later };
    expect((await fx.world.cairn.invoke("team_invitation_list", ctx, {})).items).toEqual([]);
    expect((await rejectionOf(fx.world.cairn.invoke("team_invitation_accept", ctx, { name: t.name }))).code).toBe("not_found");
  });

  it("an administrator adds directly, announced as team.joined via administrator", async () => {
    const [bob, alice] = [await fx.world.user("bob"), await fx.world.user("alice")];
    const t = await createTestTeam(fx.world, bob);
    const admin = fx.world.cairn.context(fx.world.admin.principal, "rest");
    expect((await fx.world.cairn.invoke("team_member_add", admin, { name: t.name, user: alice.name })).members).toContain(alice.name);
    const joined = (await eventsOf(`team:${t.name}`)).filter((e) => e.type === "team.joined");
    expect(joined.map((e) => e.data.via)).toEqual(["administrator"]);
  });

  it("a team holds at most 100 open invitations; the 101st is a 422 naming the limit", async () => {
    const bob = await fx.world.user("bob");
    const t = await createTestTeam(fx.world, bob);
    const team = await fx.store.query<{ id: string }>("select id from teams where name = $1", [t.name]);
    await fx.store.query(
      `insert into team_invitations (team_id, invited_name, user_id, invited_by, created_at)
       select $1, 'n' || g, null, u.id, now() from generate_series(1, 100) g, users u where u.name = $2`,
      [team[0]?.id, bob.name],
    );
    const err = await rejectionOf(fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: "one-more" }));
    expect(err.code).toBe("validation_failed");
    expect(err.issues?.[0]).toMatchObject({ field: "user", limit: 100 });
    expect((await fx.world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: "n1" })).invited).toHaveLength(100);
  });

  it("answers for a team that did not invite you are 404s that say so", async () => {
    const alice = await fx.world.user("alice");
    for (const op of ["team_invitation_accept", "team_invitation_decline"]) {
      const err = await rejectionOf(invoke(op, alice, { name: "never-invited-me" }));
      expect(err.code, op).toBe("not_found");
      expect(err.message).toBe("No invitation from team:never-invited-me is waiting for you.");
    }
  });
});
