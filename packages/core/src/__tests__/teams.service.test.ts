import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../store/port.js";
import { createTestTeam, createTestWorld, DRIVERS, minimalReceipt, openTestStore, reauthenticate, type TestWorld } from "../testing/index.js";
import { rejectionOf } from "./helpers.js";

describe.each(DRIVERS)("teams on %s", (driver) => {
  let store: Store;
  let world: TestWorld;
  const admin = () => world.cairn.context(world.admin.principal, "rest");
  beforeAll(async () => {
    store = await openTestStore(driver);
    world = await createTestWorld(store);
  });
  afterAll(async () => store?.close());

  it("any user creates a team and is its first member; the name is then taken", async () => {
    const sam = await world.user("sam");
    const team = await world.cairn.invoke("team_create", sam.ctx(), { name: `ops-${sam.name}` });
    expect(team).toMatchObject({ name: `ops-${sam.name}`, owner: `team:ops-${sam.name}`, members: [sam.name] });
    expect(team.id).toMatch(/^team_/);
    const other = await world.user("other");
    const err = await rejectionOf(world.cairn.invoke("team_create", other.ctx(), { name: `ops-${sam.name}` }));
    expect(err.code).toBe("validation_failed");
    expect(err.issues).toEqual([{ field: "name", reason: "is already taken" }]);
  });

  it("rejects a malformed team name with the field named", async () => {
    const sam = await world.user("sam");
    const err = await rejectionOf(world.cairn.invoke("team_create", sam.ctx(), { name: "Ops Team" }));
    expect(err.issues?.[0]?.field).toBe("name");
  });

  it("members invite members, who join on accepting; inviting a member changes nothing; members are listed sorted", async () => {
    const [a, b, c] = [await world.user("a"), await world.user("b"), await world.user("c")];
    const t = await createTestTeam(world, a, b);
    const [member] = t.members;
    const invited = await world.cairn.invoke("team_member_add", member.ctx(), { name: t.name, user: c.name });
    expect(invited.members).toEqual([a.name, b.name].sort());
    expect(invited.invited).toEqual([c.name]);
    const joined = await world.cairn.invoke("team_invitation_accept", c.ctx(), { name: t.name });
    expect(joined.members).toEqual([a.name, b.name, c.name].sort());
    expect(joined.invited).toEqual([]);
    const again = await world.cairn.invoke("team_member_add", t.creator.ctx(), { name: t.name, user: c.name });
    expect(again).toEqual(joined);
    expect(await world.cairn.invoke("team_read", member.ctx(), { name: t.name })).toEqual(joined);
  });

  it("outsiders get the same 404 for a team that exists and one that does not", async () => {
    const a = await world.user("a");
    const outsider = await world.user("outsider");
    const t = await createTestTeam(world, a);
    for (const [op, input] of [
      ["team_read", { name: t.name }],
      ["team_member_add", { name: t.name, user: outsider.name }],
      ["team_member_remove", { name: t.name, user: a.name }],
    ] as const) {
      const existing = await rejectionOf(world.cairn.invoke(op, outsider.ctx(), input));
      const missing = await rejectionOf(world.cairn.invoke(op, outsider.ctx(), { ...input, name: "no-such-team" }));
      expect(existing.code, op).toBe("not_found");
      expect(existing.toBody()).toEqual(missing.toBody());
    }
    expect((await world.cairn.invoke("team_read", t.creator.ctx(), { name: t.name })).members).toEqual([a.name]);
  });

  it("an administrator adding a user that does not exist is a 404 naming the user field", async () => {
    const a = await world.user("a");
    const t = await createTestTeam(world, a);
    const err = await rejectionOf(world.cairn.invoke("team_member_add", admin(), { name: t.name, user: "nobody-here" }));
    expect(err.code).toBe("not_found");
    expect(err.issues).toEqual([{ field: "user", reason: "names no user" }]);
  });

  it("members create for the team and read its artifacts; a removed member no longer can", async () => {
    const [a, b] = [await world.user("a"), await world.user("b")];
    const t = await createTestTeam(world, a, b);
    const [member] = t.members;
    const receipt = await world.cairn.invoke("receipt_create", member.ctx(), minimalReceipt({ owner: `team:${t.name}` }));
    expect(receipt.owner).toBe(`team:${t.name}`);
    expect((await world.cairn.invoke("artifact_read", t.creator.ctx(), { id: receipt.id })).id).toBe(receipt.id);
    const listed = await world.cairn.invoke("artifact_search", t.creator.ctx(), { tag: "receipt" });
    expect(listed.items.map((i) => i.id)).toContain(receipt.id);

    const after = await world.cairn.invoke("team_member_remove", t.creator.ctx(), { name: t.name, user: b.name });
    expect(after.members).toEqual([a.name]);
    const removed = await reauthenticate(world, member);
    expect((await rejectionOf(world.cairn.invoke("artifact_read", removed.ctx(), { id: receipt.id }))).code).toBe("not_found");
    const search = await world.cairn.invoke("artifact_search", removed.ctx(), { tag: "receipt" });
    expect(search.items.map((i) => i.id)).not.toContain(receipt.id);
    const create = await rejectionOf(world.cairn.invoke("receipt_create", removed.ctx(), minimalReceipt({ owner: `team:${t.name}`, learned: "x" })));
    expect(create.code).toBe("forbidden");
    expect(create.issues?.[0]?.field).toBe("owner");
  });

  it("a member may leave, but the last member cannot, and removing a non-member is a 404", async () => {
    const [a, b, c] = [await world.user("a"), await world.user("b"), await world.user("c")];
    const t = await createTestTeam(world, a, b);
    const left = await world.cairn.invoke("team_member_remove", t.members[0].ctx(), { name: t.name, user: b.name });
    expect(left.members).toEqual([a.name]);
    const last = await rejectionOf(world.cairn.invoke("team_member_remove", t.creator.ctx(), { name: t.name, user: a.name }));
    expect(last.code).toBe("validation_failed");
    expect(last.issues).toEqual([{ field: "user", reason: "is the last member; a team keeps at least one member", limit: 1 }]);
    const stranger = await rejectionOf(world.cairn.invoke("team_member_remove", t.creator.ctx(), { name: t.name, user: c.name }));
    expect(stranger.code).toBe("not_found");
    expect(stranger.issues?.[0]?.field).toBe("user");
  });

  it("two members removing each other at once leave one member, never none", async () => {
    const [a, b] = [await world.user("a"), await world.user("b")];
    const t = await createTestTeam(world, a, b);
    const results = await Promise.allSettled([
      world.cairn.invoke("team_member_remove", t.creator.ctx(), { name: t.name, user: b.name }),
      world.cairn.invoke("team_member_remove", t.members[0].ctx(), { name: t.name, user: a.name }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [row] = await store.query<{ n: number }>("select count(*)::int as n from team_members m join teams t on t.id = m.team_id where t.name = $1", [
      t.name,
    ]);
    expect(row?.n).toBe(1);
  });

  it("an administrator manages any team but, not being a member, reads none of its artifacts", async () => {
    const a = await world.user("a");
    const b = await world.user("b");
    const t = await createTestTeam(world, a);
    const receipt = await world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ owner: `team:${t.name}`, learned: "adm" }));
    expect((await world.cairn.invoke("team_read", admin(), { name: t.name })).members).toEqual([a.name]);
    const added = await world.cairn.invoke("team_member_add", admin(), { name: t.name, user: b.name });
    expect(added.members).toContain(b.name);
    expect((await rejectionOf(world.cairn.invoke("artifact_read", admin(), { id: receipt.id }))).code).toBe("not_found");
    expect((await rejectionOf(world.cairn.invoke("team_read", admin(), { name: "no-such-team" }))).code).toBe("not_found");
  });

  it("a team name is only an owner for its members: others get 403 on owner", async () => {
    const a = await world.user("a");
    const outsider = await world.user("outsider");
    const t = await createTestTeam(world, a);
    for (const [op, input] of [
      ["receipt_create", minimalReceipt({ owner: `team:${t.name}`, learned: "o" })],
      ["artifact_create", { title: "x", body: "y", owner: `team:${t.name}` }],
      ["run_create", { name: "r", owner: `team:${t.name}` }],
    ] as const) {
      const err = await rejectionOf(world.cairn.invoke(op, outsider.ctx(), input));
      expect(err.code, op).toBe("forbidden");
      expect(err.issues?.[0]?.field).toBe("owner");
    }
  });
});
