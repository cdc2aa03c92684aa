import { describe, expect, it } from "vitest";
import { authenticate } from "../identity/tokens.js";
import { PLANTED } from "../secrets/__tests__/planted.js";
import { createTestTeam, DRIVERS, minimalReceipt } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

/** SPEC §34: comments on a receipt. */
describe.each(DRIVERS)("comments on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("a team member and the team's agent comment; the list is oldest first and paged; the agent's is labelled; the owner hears of each", async () => {
    const [sam, kim] = [await fx.world.user("sam"), await fx.world.user("kim")];
    const t = await createTestTeam(fx.world, sam, kim);
    const receipt = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ owner: `team:${t.name}` }));
    const [member] = t.members;
    const first = await fx.world.cairn.invoke("comment_create", member.ctx(), { id: receipt.id, body: "Looks right to me. **Ship it.**" });
    expect(first).toMatchObject({ artifact_id: receipt.id, author: member.name, agent: false, body: "Looks right to me. **Ship it.**", deleted: null });

    const agent = await fx.world.cairn.invoke("token_create", t.creator.ctx(), { name: "deploy-bot", kind: "agent" });
    const principal = await authenticate(fx.store, agent.token);
    if (!principal) throw new Error("agent token did not authenticate");
    const second = await fx.world.cairn.invoke("comment_create", fx.world.cairn.context(principal, "mcp"), { id: receipt.id, body: "Deployed at 10:02." });
    expect(second).toMatchObject({ author: t.creator.name, token_name: "deploy-bot", agent: true });

    const page = await fx.world.cairn.invoke("comment_list", t.creator.ctx(), { id: receipt.id, limit: 1 });
    expect(page.items.map((c) => c.id)).toEqual([first.id]);
    expect(page.next_cursor).not.toBeNull();
    const rest = await fx.world.cairn.invoke("comment_list", t.creator.ctx(), { id: receipt.id, cursor: page.next_cursor ?? undefined });
    expect(rest).toEqual({ items: [second], next_cursor: null });

    const events = await fx.store.query<{ owner: string; payload: string }>(
      "select owner, payload from events where type = 'artifact.commented' order by id",
      [],
    );
    expect(events.map((e) => ({ owner: e.owner, comment: JSON.parse(e.payload).data.comment }))).toEqual([
      { owner: `team:${t.name}`, comment: { id: first.id, body: first.body, by: { user: member.name, token_name: expect.any(String) }, agent: false } },
      { owner: `team:${t.name}`, comment: { id: second.id, body: second.body, by: { user: t.creator.name, token_name: "deploy-bot" }, agent: true } },
    ]);
  });

  it("a secret refuses the comment with 422 on body and a drop receipt, and nothing is stored", async () => {
    const sam = await fx.world.user("sam");
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const refused = await rejectionOf(fx.world.cairn.invoke("comment_create", sam.ctx(), { id: receipt.id, body: `the token is ${PLANTED.ghp}` }));
    expect(refused.code).toBe("validation_failed");
    expect(refused.issues).toEqual([{ field: "body", reason: "contains a secret (github)" }]);
    expect(refused.drop).toMatchObject({ category: "secret-detected", fields: ["body"], owner: `user:${sam.name}` });
    expect(JSON.stringify(refused.toBody())).not.toContain(PLANTED.ghp);
    expect((await fx.world.cairn.invoke("drops_list", sam.ctx(), {})).items.map((d) => d.id)).toContain(refused.drop?.id);
    expect((await fx.world.cairn.invoke("comment_list", sam.ctx(), { id: receipt.id })).items).toEqual([]);

    const long = await rejectionOf(fx.world.cairn.invoke("comment_create", sam.ctx(), { id: receipt.id, body: "x".repeat(4_001) }));
    expect(long.issues).toEqual([expect.objectContaining({ field: "body", limit: 4_000 })]);
  });

  it("an outsider gets the answer of an unknown receipt, on every comment verb", async () => {
    const [sam, eve] = [await fx.world.user("sam"), await fx.world.user("eve")];
    const receipt = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const c = await fx.world.cairn.invoke("comment_create", sam.ctx(), { id: receipt.id, body: "mine" });
    const unknown = "art_00000000000000000000000000";
    for (const [op, input, missing] of [
      ["comment_create", { id: receipt.id, body: "hi" }, { id: unknown, body: "hi" }],
      ["comment_list", { id: receipt.id }, { id: unknown }],
      ["comment_delete", { id: receipt.id, cid: c.id }, { id: unknown, cid: c.id }],
    ] as const) {
      const outsider = await rejectionOf(fx.world.cairn.invoke(op as any, eve.ctx(), input));
      const none = await rejectionOf(fx.world.cairn.invoke(op as any, eve.ctx(), missing));
      expect(outsider.code).toBe("not_found");
      expect(outsider.toBody()).toEqual(none.toBody());
    }
  });

  it("delete: the author or the owner leaves a tombstone without the words; another member is refused", async () => {
    const [sam, kim] = [await fx.world.user("sam"), await fx.world.user("kim")];
    const t = await createTestTeam(fx.world, sam, kim);
    const receipt = await fx.world.cairn.invoke("receipt_create", t.creator.ctx(), minimalReceipt({ owner: `team:${t.name}` }));
    const [member] = t.members;
    const c = await fx.world.cairn.invoke("comment_create", t.creator.ctx(), { id: receipt.id, body: "a second thought" });
    const refused = await rejectionOf(fx.world.cairn.invoke("comment_delete", member.ctx(), { id: receipt.id, cid: c.id }));
    expect(refused.code).toBe("forbidden");
    expect(refused.issues).toEqual([{ field: "cid", reason: "only its author or the receipt's owner may delete a comment" }]);

    const gone = await fx.world.cairn.invoke("comment_delete", t.creator.ctx(), { id: receipt.id, cid: c.id });
    expect(gone).toMatchObject({ id: c.id, body: null, deleted: { by: t.creator.name, at: expect.any(String) } });
    const listed = await fx.world.cairn.invoke("comment_list", member.ctx(), { id: receipt.id });
    expect(listed.items).toEqual([gone]);
    const [row] = await fx.store.query<{ body: string | null }>("select body from comments where id = $1", [c.id]);
    expect(row?.body).toBeNull();

    const personal = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    const own = await fx.world.cairn.invoke("comment_create", sam.ctx(), { id: personal.id, body: "noted" });
    expect((await fx.world.cairn.invoke("comment_delete", sam.ctx(), { id: personal.id, cid: own.id })).deleted?.by).toBe(sam.name);
  });
});
