import { describe, expect, it } from "vitest";
import { authenticate } from "../identity/tokens.js";
import { createTestTeam, DRIVERS, minimalReceipt, reauthenticate } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

/** SPEC §34: move a receipt to a team, and the assign that follows it. */
describe.each(DRIVERS)("artifact transfer on %s", (driver) => {
  const fx = useTestWorld(driver);
  const transferredEvents = async (id: string) =>
    (await fx.store.query<{ owner: string; payload: string }>("select owner, payload from events where type = 'artifact.transferred' order by owner", []))
      .map((e) => ({ owner: e.owner, data: JSON.parse(e.payload).data }))
      .filter((e) => e.data.id === id);

  it("the owner moves a receipt to their team: acknowledgements, assignee and links follow, the team reads it, both owners hear of it", async () => {
    const [sam, kim, eve] = [await fx.world.user("sam"), await fx.world.user("kim"), await fx.world.user("eve")];
    const t = await createTestTeam(fx.world, sam, kim);
    const team = `team:${t.name}`;
    const first = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ human_action: "Approve the limit" }));
    const later = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ learned: "a follow-up", follows: first.id }));
    await fx.world.cairn.invoke("artifact_acknowledge", t.creator.ctx(), { id: first.id, note: "seen" });
    await fx.world.cairn.invoke("artifact_assign", t.creator.ctx(), { id: first.id, assignee: sam.name });

    const refused = await rejectionOf(fx.world.cairn.invoke("artifact_assign", t.creator.ctx(), { id: first.id, assignee: kim.name }));
    expect(refused.code).toBe("validation_failed");
    expect(refused.issues).toEqual([
      {
        field: "assignee",
        reason: `names no user who may read it: only ${sam.name} (the owner) may be assigned; move it to ${team} first (cairn transfer ${first.id} ${team}), then assign it`,
      },
    ]);
    const stranger = await rejectionOf(fx.world.cairn.invoke("artifact_assign", t.creator.ctx(), { id: first.id, assignee: eve.name }));
    const ghost = await rejectionOf(fx.world.cairn.invoke("artifact_assign", t.creator.ctx(), { id: first.id, assignee: "no-such-user" }));
    expect(stranger.toBody()).toEqual(ghost.toBody()); // a name that is no user reads the same as one that is
    expect(stranger.message).toContain("move it to team:NAME first");

    const moved = await fx.world.cairn.invoke("artifact_transfer", t.creator.ctx(), { id: first.id, owner: team });
    // Its follow-up moves with it: §9 links only artifacts of one owner, and the outcome it measured still reads as measured.
    expect(moved).toMatchObject({ id: first.id, owner: team, assignee: sam.name, followed_by: [later.id] });
    expect(moved.acknowledgements).toEqual([expect.objectContaining({ note: "seen" })]);
    const [member] = t.members;
    const read = await fx.world.cairn.invoke("artifact_read", member.ctx(), { id: first.id });
    expect(read.acknowledgements.map((a) => a.note)).toEqual(["seen"]);
    expect((await fx.world.cairn.invoke("artifact_search", member.ctx(), { tag: "receipt" })).items.map((i) => i.id)).toContain(first.id);
    expect(await fx.world.cairn.invoke("artifact_read", member.ctx(), { id: later.id })).toMatchObject({ owner: team, follows: { id: first.id } });
    expect((await fx.world.cairn.invoke("artifact_assign", t.creator.ctx(), { id: first.id, assignee: kim.name })).assignee).toBe(kim.name);

    const by = { user: sam.name, token_name: expect.any(String) };
    const data = { id: first.id, title: first.title, url: first.url, owner: team, previous_owner: `user:${sam.name}`, by };
    expect(await transferredEvents(first.id)).toEqual(
      [
        { owner: team, data },
        { owner: `user:${sam.name}`, data },
      ].sort((a, b) => a.owner.localeCompare(b.owner)),
    );
  });

  it("refuses an outsider (404), a team the caller is not in (403 on owner), an agent token (403), the same owner and a non-team owner (422)", async () => {
    const [sam, eve] = [await fx.world.user("sam"), await fx.world.user("eve")];
    const mine = await createTestTeam(fx.world, sam);
    const theirs = await createTestTeam(fx.world, eve);
    const receipt = await fx.world.cairn.invoke("receipt_create", mine.creator.ctx(), minimalReceipt({ learned: "to move" }));
    const outsider = await rejectionOf(fx.world.cairn.invoke("artifact_transfer", theirs.creator.ctx(), { id: receipt.id, owner: `team:${theirs.name}` }));
    const missing = await rejectionOf(
      fx.world.cairn.invoke("artifact_transfer", theirs.creator.ctx(), { id: "art_00000000000000000000000000", owner: `team:${theirs.name}` }),
    );
    expect(outsider.code).toBe("not_found");
    expect(outsider.toBody()).toEqual(missing.toBody());

    const notMine = await rejectionOf(fx.world.cairn.invoke("artifact_transfer", mine.creator.ctx(), { id: receipt.id, owner: `team:${theirs.name}` }));
    expect(notMine.code).toBe("forbidden");
    expect(notMine.issues).toEqual([{ field: "owner", reason: `you are not a member of team:${theirs.name}` }]);

    const agent = await fx.world.cairn.invoke("token_create", sam.ctx(), { name: "bot", kind: "agent" });
    const agentPrincipal = await authenticate(fx.store, agent.token);
    if (!agentPrincipal) throw new Error("agent token did not authenticate");
    const byAgent = await rejectionOf(
      fx.world.cairn.invoke("artifact_transfer", fx.world.cairn.context(agentPrincipal, "mcp"), { id: receipt.id, owner: `team:${mine.name}` }),
    );
    expect(byAgent.code).toBe("forbidden");
    expect(byAgent.message).toContain("artifacts:transfer");

    for (const owner of [`user:${sam.name}`, "team:Bad Name", ""]) {
      const bad = await rejectionOf(fx.world.cairn.invoke("artifact_transfer", mine.creator.ctx(), { id: receipt.id, owner }));
      expect(bad.code, owner).toBe("validation_failed");
      expect(bad.issues?.[0]?.field).toBe("owner");
    }
    await fx.world.cairn.invoke("artifact_transfer", mine.creator.ctx(), { id: receipt.id, owner: `team:${mine.name}` });
    const again = await rejectionOf(fx.world.cairn.invoke("artifact_transfer", mine.creator.ctx(), { id: receipt.id, owner: `team:${mine.name}` }));
    expect(again.issues?.[0]).toEqual({ field: "owner", reason: `is already the owner of ${receipt.id}` });
    // The former owner user is no longer the owner: a team's receipt moves on only with a member who is in the target too.
    const left = await reauthenticate(fx.world, sam);
    expect((await fx.world.cairn.invoke("artifact_read", left.ctx(), { id: receipt.id })).owner).toBe(`team:${mine.name}`);
  });

  it("an administrator moves any artifact; an assignee who cannot read it under the new team is cleared and announced", async () => {
    const [sam, kim, eve] = [await fx.world.user("sam"), await fx.world.user("kim"), await fx.world.user("eve")];
    const from = await createTestTeam(fx.world, sam, kim);
    const to = await createTestTeam(fx.world, eve);
    const receipt = await fx.world.cairn.invoke(
      "receipt_create",
      from.creator.ctx(),
      minimalReceipt({ owner: `team:${from.name}`, human_action: "Check the dashboard" }),
    );
    await fx.world.cairn.invoke("artifact_assign", from.creator.ctx(), { id: receipt.id, assignee: kim.name });
    const admin = fx.world.cairn.context(fx.world.admin.principal, "rest");
    const moved = await fx.world.cairn.invoke("artifact_transfer", admin, { id: receipt.id, owner: `team:${to.name}` });
    expect(moved).toMatchObject({ owner: `team:${to.name}`, assignee: null });
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_read", from.creator.ctx(), { id: receipt.id }))).code).toBe("not_found");
    expect((await fx.world.cairn.invoke("artifact_read", to.creator.ctx(), { id: receipt.id })).id).toBe(receipt.id);
    const cleared = await fx.store.query<{ payload: string }>("select payload from events where type = 'artifact.assigned' and owner = $1", [
      `team:${to.name}`,
    ]);
    expect(cleared.map((e) => JSON.parse(e.payload).data)).toEqual([expect.objectContaining({ id: receipt.id, assignee: null, previous_assignee: kim.name })]);
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_transfer", admin, { id: receipt.id, owner: "team:no-such-team" }))).code).toBe("not_found");
  });

  it("a receipt keeps its thread: what it follows and what follows it move too, a stranger's receipt does not", async () => {
    const [sam, eve] = [await fx.world.user("sam"), await fx.world.user("eve")];
    const t = await createTestTeam(fx.world, sam);
    const a = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ learned: "first in the thread" }));
    const b = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ learned: "second in the thread", follows: a.id }));
    const c = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ learned: "third in the thread", follows: b.id }));
    const aside = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ learned: "not in the thread" }));
    const theirs = await fx.world.cairn.invoke("receipt_create", eve.ctx(), minimalReceipt({ learned: "eve's own" }));
    await fx.store.query("update artifacts set follows = $1 where id = $2", [b.id, theirs.id]); // planted, as an older writer could have
    await fx.world.cairn.invoke("artifact_transfer", t.creator.ctx(), { id: b.id, owner: `team:${t.name}` });
    const owners = await fx.store.query<{ id: string; owner: string }>("select id, owner from artifacts where id = any($1::text[]) order by id", [
      [a.id, b.id, c.id, aside.id, theirs.id],
    ]);
    expect(Object.fromEntries(owners.map((r) => [r.id, r.owner]))).toEqual({
      [a.id]: `team:${t.name}`,
      [b.id]: `team:${t.name}`,
      [c.id]: `team:${t.name}`,
      [aside.id]: `user:${sam.name}`,
      [theirs.id]: `user:${eve.name}`,
    });
  });

  it("an expired artifact is gone (410), not moved", async () => {
    const sam = await fx.world.user("sam");
    const t = await createTestTeam(fx.world, sam);
    const receipt = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ learned: "short lived" }));
    const later = { ...t.creator.ctx(), now: () => new Date(Date.now() + 30 * 86_400_000) };
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_transfer", later, { id: receipt.id, owner: `team:${t.name}` }))).code).toBe("gone");
  });
});
