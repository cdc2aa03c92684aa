import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DRIVERS, minimalReceipt, type TestUser } from "../testing/index.js";
import { rejectionOf, useTestWorld } from "./helpers.js";

const DAY_MS = 86_400_000;
const T0 = Date.parse("2026-12-01T12:00:00Z");
/** Random letters, no digits: a test that looks for a number in a body never finds it in a random word. */
const randomLetters = (bytes: number) =>
  randomBytes(bytes)
    .toString("hex")
    .replace(/\d/g, (d) => "ghijklmnop"[Number(d)] ?? "g");

describe.each(DRIVERS)("search filters on %s", (driver) => {
  let clock = T0;
  const fx = useTestWorld(driver, () => new Date(clock));

  /** A receipt carrying the test's unique word, so each test sees only its own rows. */
  async function receipt(user: TestUser, word: string, overrides: Record<string, unknown> = {}) {
    clock += 1;
    const learned = `${word} ${randomLetters(4)}`;
    return fx.world.cairn.invoke("receipt_create", user.ctx(), minimalReceipt({ learned, ...overrides }));
  }

  async function ids(user: TestUser, input: Record<string, unknown>): Promise<string[]> {
    const page = await fx.world.cairn.invoke("artifact_search", user.ctx(), { limit: 200, ...input });
    return page.items.map((i) => i.id);
  }

  it("each filter narrows a unique word's results, AND-combined, and never shows what the viewer cannot read", async () => {
    const sam = await fx.world.user("sam");
    const kim = await fx.world.user("kim");
    const eve = await fx.world.user("eve");
    const crew = await fx.world.team([sam, kim], "crew");
    const word = `zq${randomBytes(5).toString("hex")}`;

    const needed = await receipt(sam, word, { human_action: "Approve the budget", tags: ["finance"] });
    const measured = await receipt(sam, word, { outcome: { status: "measured", summary: "fell to 0.3%" } });
    const pendingPast = await receipt(sam, word, { outcome: { status: "pending", measure_at: "2026-11-20" } });
    const pendingToday = await receipt(sam, word, { outcome: { status: "pending", measure_at: "2026-12-01" } });
    const pendingLater = await receipt(sam, word, { outcome: { status: "pending", measure_at: "2026-12-10T09:00:00Z" } });
    const teamOne = await receipt(kim, word, { owner: crew, human_action: "Sign off the rollout" });
    const plain = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: `plain ${word}`, body: `a note about ${word}` });
    // Eve writes the same word with every filterable trait: none of it may reach sam.
    await receipt(eve, word, { human_action: "Eve's action", outcome: { status: "pending", measure_at: "2026-11-01" } });
    await fx.world.cairn.invoke("artifact_create", eve.ctx(), { title: `eve ${word}`, body: word });
    // A follower closes an outcome: pendingPast is followed and so is not overdue.
    const followed = await receipt(sam, word, { outcome: { status: "pending", measure_at: "2026-11-25" } });
    const follower = await receipt(sam, word, { follows: followed.id, outcome: { status: "measured", summary: "done" } });

    const all = [needed, measured, pendingPast, pendingToday, pendingLater, teamOne, plain, followed, follower].map((a) => a.id);
    const newestFirst = (xs: { id: string }[]) =>
      xs
        .map((x) => x.id)
        .sort()
        .reverse();
    expect(await ids(sam, { q: word })).toEqual([...all].sort().reverse());
    expect(await ids(eve, { q: word, owner: `user:${sam.name}` })).toEqual([]);
    expect(await ids(eve, { q: word, owner: crew })).toEqual([]);

    expect(await ids(sam, { q: word, owner: crew })).toEqual([teamOne.id]);
    expect(await ids(sam, { q: word, owner: `user:${sam.name}` })).not.toContain(teamOne.id);
    expect(await ids(sam, { q: word, schema: "cairn.receipt/v1" })).not.toContain(plain.id);
    expect(await ids(sam, { q: word, schema: "cairn.receipt/v1" })).toHaveLength(all.length - 1);
    expect(await ids(sam, { q: word, human_action: "needed" })).toEqual(newestFirst([needed, teamOne]));
    expect(await ids(sam, { q: word, human_action: "none" })).toHaveLength(all.length - 3);
    expect(await ids(sam, { q: word, human_action: "needed", owner: crew })).toEqual([teamOne.id]);
    expect(await ids(sam, { q: word, human_action: "needed", tag: "finance" })).toEqual([needed.id]);
    expect(await ids(sam, { q: word, outcome: "measured" })).toEqual(newestFirst([measured, follower]));
    expect(await ids(sam, { q: word, outcome: "pending" })).toEqual(newestFirst([pendingPast, pendingToday, pendingLater, followed]));
    expect(await ids(sam, { q: word, outcome: "not_applicable" })).toEqual(newestFirst([needed, teamOne]));
    // A date-only measure_at is due from the start of that day (UTC): today's counts, the followed one does not.
    expect(await ids(sam, { q: word, outcome: "overdue" })).toEqual(newestFirst([pendingPast, pendingToday]));
    expect(await ids(sam, { q: word, measure_before: "2026-12-01" })).toEqual(newestFirst([pendingPast, followed]));
    expect(await ids(sam, { q: word, measure_before: "2026-12-10T09:00:01Z" })).toHaveLength(4);

    const cut = new Date(new Date(pendingToday.created_at).getTime()).toISOString();
    expect(await ids(sam, { q: word, created_before: cut })).toEqual(newestFirst([needed, measured, pendingPast]));
    expect(await ids(sam, { q: word, created_after: cut, created_before: new Date(T0 + DAY_MS).toISOString() })).toEqual(
      newestFirst([pendingLater, teamOne, plain, followed, follower]),
    );
    expect(await ids(sam, { q: word, created_after: "2026-12-02" })).toEqual([]);
  });

  it("pages through filtered results with the cursor and leaves bodies out under fields=summary", async () => {
    const sam = await fx.world.user("sam");
    const word = `zp${randomBytes(5).toString("hex")}`;
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await receipt(sam, word, { human_action: `Do thing ${i}` }));
    await receipt(sam, word);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const page = await fx.world.cairn.invoke("artifact_search", sam.ctx(), {
        q: word,
        human_action: "needed",
        limit: 2,
        fields: "summary",
        ...(cursor && { cursor }),
      });
      for (const item of page.items) {
        expect(item).not.toHaveProperty("body");
        expect(item.checksum).toMatch(/^sha256:/);
        seen.push(item.id);
      }
      if (page.next_cursor === null) break;
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(made.map((m) => m.id).reverse());
    const full = await fx.world.cairn.invoke("artifact_search", sam.ctx(), { q: word, limit: 1 });
    expect(full.items[0]?.body).toContain("# ");
  });

  it.each([
    ["human_action", "maybe"],
    ["outcome", "late"],
    ["schema", "cairn.receipt/v9"],
    ["owner", "sam"],
    ["measure_before", "2026-02-30"],
    ["created_after", "last tuesday"],
    ["created_before", "2026-12-01T25:00:00Z"],
    ["fields", "bodies"],
  ])("an invalid %s is refused naming the parameter", async (field, value) => {
    const sam = await fx.world.user("sam");
    const err = await rejectionOf(fx.world.cairn.invoke("artifact_search", sam.ctx(), { [field]: value }));
    expect(err.code).toBe("validation_failed");
    expect(err.issues?.map((i) => i.field)).toEqual([field]);
  });

  it("expires_in shortens a life, is checked against the owner's TTL, and the expired artifact is gone", async () => {
    const sam = await fx.world.user("sam");
    const word = `ze${randomLetters(5)}`;
    const short = await receipt(sam, word, { expires_in: 600 });
    expect(new Date(short.expires_at ?? 0).getTime() - new Date(short.created_at).getTime()).toBe(600_000);
    expect(short.body).not.toContain("600");
    const plain = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "t", body: "b", expires_in: 60 });
    expect(new Date(plain.expires_at ?? 0).getTime() - new Date(plain.created_at).getTime()).toBe(60_000);

    const tooLong = await rejectionOf(receipt(sam, word, { expires_in: 8 * 86_400 }));
    expect(tooLong.issues).toEqual([{ field: "expires_in", reason: expect.stringContaining("TTL"), limit: 7 * 86_400 }]);
    expect(tooLong.drop?.category).toBe("invalid");
    const tooShort = await rejectionOf(fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: "t", body: "b", expires_in: 59 }));
    expect(tooShort.issues?.[0]?.field).toBe("expires_in");

    clock += 601_000;
    try {
      expect((await rejectionOf(fx.world.cairn.invoke("artifact_read", sam.ctx(), { id: short.id }))).code).toBe("gone");
      expect(await ids(sam, { q: word })).toEqual([]);
    } finally {
      clock -= 601_000;
    }
  });
});
