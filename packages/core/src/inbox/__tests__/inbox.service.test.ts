import { describe, expect, it } from "vitest";
import { rejectionOf, useTestWorld } from "../../__tests__/helpers.js";
import { authenticate } from "../../identity/tokens.js";
import { DRIVERS, minimalReceipt, type TestUser } from "../../testing/index.js";

const DAY_MS = 86_400_000;
let clock = Date.parse("2026-12-01T12:00:00.000Z");
const ASKS = "Approve the retry budget in the finance channel.";

describe.each(DRIVERS)("inbox and acknowledgements on %s", (driver) => {
  const fx = useTestWorld(driver, () => new Date(clock));
  let n = 0;
  const asking = (overrides: Record<string, unknown> = {}) => minimalReceipt({ human_action: ASKS, learned: `asks ${++n} ${Math.random()}`, ...overrides });
  const eventsOf = async (type: string, id: string) =>
    (await fx.store.query<{ payload: string }>("select payload from events where type = $1 and (payload::jsonb->'data'->>'id') = $2", [type, id])).map((r) =>
      JSON.parse(r.payload),
    );
  const agentOf = async (user: TestUser) => {
    const minted = await fx.world.cairn.invoke("token_create", user.ctx(), { name: "claude", kind: "agent" });
    const principal = await authenticate(fx.store, minted.token);
    if (!principal) throw new Error("agent token did not authenticate");
    return fx.world.cairn.context(principal, "mcp");
  };

  it("a receipt that asks for an action is open in the inbox; one that says Nothing is not", async () => {
    const sam = await fx.world.user("sam");
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking());
    const nothing = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "asks nothing" }));
    expect(nothing.metadata?.human_action).toBe("Nothing");
    expect(asks.acknowledgements).toEqual([]);

    const inbox = await fx.world.cairn.invoke("inbox_list", sam.ctx(), {});
    expect(inbox.items.map((i) => i.id)).toEqual([asks.id]);
    expect(inbox.items[0]).toMatchObject({
      state: "open",
      human_action: ASKS,
      age: { seconds: 0, days: 0 },
      acknowledgements: [],
      receipt: { id: asks.id, checksum: asks.checksum },
    });
    // An agent reads what waits on people.
    const agent = await agentOf(sam);
    expect((await fx.world.cairn.invoke("inbox_list", agent, {})).items.map((i) => i.id)).toEqual([asks.id]);
    // Someone else sees none of it.
    const eve = await fx.world.user("eve");
    expect((await fx.world.cairn.invoke("inbox_list", eve.ctx(), {})).items).toEqual([]);
    const foreign = await rejectionOf(fx.world.cairn.invoke("inbox_list", eve.ctx(), { owner: `user:${sam.name}` }));
    expect(foreign.code).toBe("forbidden");
  });

  it("an agent token cannot acknowledge: 403 naming the permission, and nothing is recorded", async () => {
    const sam = await fx.world.user("sam");
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking());
    const err = await rejectionOf(fx.world.cairn.invoke("artifact_acknowledge", await agentOf(sam), { id: asks.id, note: "done" }));
    expect(err.code).toBe("forbidden");
    expect(err.message).toContain("acknowledgements:write");
    const read = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: asks.id });
    expect(read.acknowledgements).toEqual([]);
    expect((await fx.world.cairn.invoke("inbox_list", sam.ctx(), {})).items.map((i) => i.state)).toEqual(["open"]);
    expect(await eventsOf("receipt.acknowledged", asks.id)).toEqual([]);
  });

  it("a human's acknowledgement closes the action, says who and when, and leaves the receipt untouched; twice keeps one", async () => {
    const sam = await fx.world.user("sam");
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking());
    const before = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: asks.id });
    clock += 2 * DAY_MS;
    const acked = await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx("cli"), { id: asks.id, note: "  Approved in #finance  " });
    const by = { user: sam.name, token_name: "initial" };
    const first = { by, at: new Date(clock).toISOString(), note: "Approved in #finance" };
    expect(acked.acknowledgements).toEqual([first]);
    expect({ ...acked, acknowledgements: [] }).toEqual(before);

    clock += 1000;
    const again = await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: asks.id, note: "second note" });
    expect(again.acknowledgements).toEqual([first]);
    const rows = await fx.store.query("select * from acknowledgements where artifact_id = $1", [asks.id]);
    expect(rows).toHaveLength(1);
    // Announced once, in the acknowledgement's transaction, with the record as the response shows it.
    const events = await eventsOf("receipt.acknowledged", asks.id);
    expect(events.map((e) => e.data)).toEqual([{ id: asks.id, title: asks.title, url: asks.url, owner: asks.owner, acknowledgement: first }]);

    const after = await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: asks.id });
    expect(after.body).toBe(before.body);
    expect(after.checksum).toBe(before.checksum);
    expect(after.metadata).toEqual(before.metadata);
    expect(after.acknowledgements).toEqual([first]);

    expect((await fx.world.cairn.invoke("inbox_list", sam.ctx(), {})).items).toEqual([]);
    const done = await fx.world.cairn.invoke("inbox_list", sam.ctx(), { state: "acknowledged" });
    expect(done.items.map((i) => [i.id, i.state, i.acknowledgements])).toEqual([[asks.id, "acknowledged", [first]]]);
    expect((await fx.world.cairn.invoke("inbox_list", sam.ctx(), { state: "all" })).items).toHaveLength(1);
    // Every page of artifacts carries them too.
    const search = await fx.world.cairn.invoke("artifact_search", sam.ctx(), {});
    expect(search.items.find((a) => a.id === asks.id)?.acknowledgements).toEqual([first]);
  });

  it("only the owner or a member of the owner team may acknowledge, and only what asks for something", async () => {
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const eve = await fx.world.user("eve");
    const team = await fx.world.team([sam, kim]);
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking({ owner: team }));
    const missing = await rejectionOf(fx.world.cairn.invoke("artifact_acknowledge", eve.ctx(), { id: "art_00000000000000000000000000" }));
    const stranger = await rejectionOf(fx.world.cairn.invoke("artifact_acknowledge", eve.ctx(), { id: asks.id }));
    expect(stranger.toBody()).toEqual(missing.toBody());
    expect(stranger.code).toBe("not_found");

    const acked = await fx.world.cairn.invoke("artifact_acknowledge", kim.ctx(), { id: asks.id });
    expect(acked.acknowledgements).toEqual([{ by: { user: kim.name, token_name: "initial" }, at: expect.any(String), note: null }]);
    const both = await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: asks.id });
    expect(both.acknowledgements.map((k) => k.by.user)).toEqual([kim.name, sam.name]);

    const nothing = await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: `nothing ${Math.random()}` }));
    const refused = await rejectionOf(fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: nothing.id }));
    expect(refused.code).toBe("validation_failed");
    expect(refused.issues?.map((i) => i.field)).toEqual(["human_action"]);
    const plain = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "notes", body: "just notes" });
    expect(plain.acknowledgements).toEqual([]);
    expect((await rejectionOf(fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: plain.id }))).issues?.[0]?.field).toBe("human_action");
  });

  it("acknowledgements read oldest first, not by name, on a read and on a page, each receipt its own", async () => {
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const team = await fx.world.team([sam, kim]);
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking({ owner: team }));
    const other = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking({ owner: team }));
    await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: asks.id });
    clock += 1000;
    await fx.world.cairn.invoke("artifact_acknowledge", kim.ctx(), { id: asks.id });
    const order = [sam.name, kim.name];
    const read = await fx.world.cairn.invoke("artifact_read", kim.ctx(), { id: asks.id });
    expect(read.acknowledgements.map((k) => k.by.user)).toEqual(order);
    expect(new Date(read.acknowledgements[1]?.at ?? 0).getTime() - new Date(read.acknowledgements[0]?.at ?? 0).getTime()).toBe(1000);
    const page = await fx.world.cairn.invoke("artifact_search", kim.ctx(), {});
    expect(page.items.find((a) => a.id === asks.id)?.acknowledgements.map((k) => k.by.user)).toEqual(order);
    expect(page.items.find((a) => a.id === other.id)?.acknowledgements).toEqual([]);
  });

  it("the note is limited and secret-scanned by the owner's policy", async () => {
    const sam = await fx.world.user("sam");
    const asks = await fx.world.cairn.invoke("receipt_create", sam.ctx(), asking());
    const long = await rejectionOf(fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: asks.id, note: "x".repeat(1001) }));
    expect(long.issues).toEqual([{ field: "note", reason: expect.any(String), limit: 1000 }]);
    const secret = `ghp_${"a1B2c3D4e5".repeat(4).slice(0, 36)}`;

    await fx.world.cairn.invoke("policy_set", sam.ctx(), { secrets: "block" });
    const blocked = await rejectionOf(fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: asks.id, note: `token ${secret}` }));
    expect(blocked.issues?.map((i) => i.field)).toEqual(["note"]);
    expect(JSON.stringify(blocked.toBody())).not.toContain(secret);
    expect((await fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: asks.id })).acknowledgements).toEqual([]);

    await fx.world.cairn.invoke("policy_set", sam.ctx(), { secrets: "redact" });
    const redacted = await fx.world.cairn.invoke("artifact_acknowledge", sam.ctx(), { id: asks.id, note: `token ${secret}` });
    expect(redacted.acknowledgements[0]?.note).toMatch(/^token \[REDACTED:[^\]]+\]$/);
  });

  it("pages the inbox newest first and leaves expired receipts out", async () => {
    const ada = await fx.world.user("ada");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await fx.world.cairn.invoke("receipt_create", ada.ctx(), asking())).id);
      clock += 1000;
    }
    const first = await fx.world.cairn.invoke("inbox_list", ada.ctx(), { limit: 2 });
    expect(first.items.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    const second = await fx.world.cairn.invoke("inbox_list", ada.ctx(), { limit: 2, cursor: first.next_cursor ?? "" });
    expect(second.items.map((i) => i.id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
    const bad = await rejectionOf(fx.world.cairn.invoke("inbox_list", ada.ctx(), { cursor: "nope" }));
    expect(bad.issues?.[0]?.field).toBe("cursor");
    clock += 8 * DAY_MS;
    expect((await fx.world.cairn.invoke("inbox_list", ada.ctx(), {})).items).toEqual([]);
  });
  it("lists open asks first with their options, then the rest newest first, across pages", async () => {
    const lee = await fx.world.user("lee");
    const options = [
      { id: "approve", label: "Approve" },
      { id: "reject", label: "Reject" },
    ];
    const make = async (ask?: Record<string, unknown>) => {
      const r = await fx.world.cairn.invoke("receipt_create", lee.ctx(), asking(ask ? { ask } : {}));
      clock += 1000;
      return r.id;
    };
    const deadline = new Date(clock + 30 * DAY_MS).toISOString();
    const openAsk = await make({ options, answer_by: deadline });
    const plainOld = await make();
    const decided = await make({ options });
    const lapsing = await make({ options, answer_by: "1h" });
    const openAsk2 = await make({ options });
    const plainNew = await make();
    await fx.world.cairn.invoke("artifact_decide", lee.ctx("cli"), { id: decided, option: "reject" });
    clock += 2 * 3_600_000; // `lapsing` passes its answer_by; the expiry job has not run
    const all = await fx.world.cairn.invoke("inbox_list", lee.ctx(), { state: "all" });
    expect(all.items.map((i) => i.id)).toEqual([openAsk2, openAsk, plainNew, lapsing, decided, plainOld]);
    expect(all.items[1]?.ask).toEqual({
      state: "open",
      options,
      answer_by: deadline,
      decision: null,
      text: `? approve | reject — answer by ${deadline.slice(0, 16).replace("T", " ")} UTC`,
    });
    expect(all.items[0]?.ask?.text).toBe("? approve | reject");
    expect(all.items[2]?.ask).toBeNull();
    expect(all.items[3]?.ask).toMatchObject({ state: "expired", decision: { state: "expired" }, text: expect.stringMatching(/^Expired unanswered: /) });
    expect(all.items[4]?.ask).toMatchObject({ state: "decided", decision: { option: "reject" }, text: expect.stringMatching(/^Decided: Reject — lee/) });
    // Paged two at a time, the order holds across the groups' seam.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await fx.world.cairn.invoke("inbox_list", lee.ctx(), { state: "all", limit: 2, ...(cursor && { cursor }) });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.items.map((i) => i.id));
    const odd = await fx.world.cairn.invoke("inbox_list", lee.ctx(), { state: "all", limit: 1 });
    const next = await fx.world.cairn.invoke("inbox_list", lee.ctx(), { state: "all", limit: 5, cursor: odd.next_cursor ?? "" });
    expect(next.items.map((i) => i.id)).toEqual([openAsk, plainNew, lapsing, decided, plainOld]);
  });
});
