import { describe, expect, it } from "vitest";
import { createCairn } from "../cairn.js";
import { newId } from "../ids.js";
import type { Store } from "../store/port.js";
import { DRIVERS, fullReceipt, minimalReceipt, TEST_PUBLIC_URL } from "../testing/index.js";
import { captureConsole, rejectionOf, useTestWorld } from "./helpers.js";

/** Seeds drops straight into the table (older ids than any real one): setting up a full owner, not exercising the write path. */
async function seedDrops(store: Store, owner: string, n: number) {
  await store.query(
    `insert into drops (id, owner, category, fields, surface, actor, created_at)
     select 'drp_' || lpad(g::text, 10, '0') || substr(md5(random()::text), 1, 16), $1, 'invalid', '[]'::jsonb, 'rest', '{"id":"t","name":"t","kind":"agent"}'::json, now()
       from generate_series(1, $2::int) g`,
    [owner, n],
  );
}

const countOf = async (store: Store, owner: string) =>
  Number((await store.query<{ n: number }>("select count(*)::int as n from drops where owner = $1", [owner]))[0]?.n);

describe.each(DRIVERS)("drop receipts: bounds, failures and surfacing on %s", (driver) => {
  const fx = useTestWorld(driver);

  it("keeps at most 400 per owner under 50 concurrent rejected writers, and stores every concurrent accepted receipt", async () => {
    const sam = await fx.world.user("sam");
    const owner = `user:${sam.name}`;
    await seedDrops(fx.store, owner, 380);
    const rejected = Array.from({ length: 50 }, () => fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "" })));
    const accepted = Array.from({ length: 10 }, (_, i) => fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: `ok ${i}` })));
    const results = await Promise.allSettled([...rejected, ...accepted]);
    expect(results.slice(0, 50).every((r) => r.status === "rejected")).toBe(true);
    expect(results.slice(50).every((r) => r.status === "fulfilled")).toBe(true);
    const n = await countOf(fx.store, owner);
    expect(n).toBeLessThanOrEqual(400);
    expect(n).toBeGreaterThanOrEqual(200);
    const stored = await fx.world.cairn.invoke("artifact_search", sam.ctx(), { tag: "receipt", limit: 200 });
    expect(stored.items).toHaveLength(10);
  });

  it("the common insert deletes nothing; crossing 400 trims back to the newest 200", async () => {
    const sam = await fx.world.user("sam");
    const owner = `user:${sam.name}`;
    await seedDrops(fx.store, owner, 399);
    await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "" })));
    expect(await countOf(fx.store, owner)).toBe(400);
    const newest = await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "" })));
    expect(await countOf(fx.store, owner)).toBe(200);
    const page = await fx.world.cairn.invoke("drops_list", sam.ctx(), { limit: 1 });
    expect(page.items[0]?.id).toBe(newest.drop?.id);
  });

  it("a failed drop write is logged without values and leaves the caller's error byte-identical", async () => {
    const sam = await fx.world.user("sam");
    const clock = new Date("2026-11-02T10:00:00.000Z");
    const fixedId = newId("drp", clock);
    const pinned = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, { now: () => clock, newId: () => fixedId });
    const raw = minimalReceipt({ before: `MARKER-b41d${"x".repeat(4001)}` });
    await fx.store.query("alter table drops rename to drops_away");
    let failed: string;
    let output: string;
    try {
      const run = await captureConsole(() => rejectionOf(pinned.invoke("receipt_create", pinned.context(sam.principal, "rest"), raw)));
      failed = JSON.stringify(run.result.toBody());
      output = run.output;
    } finally {
      await fx.store.query("alter table drops_away rename to drops");
    }
    const ok = await rejectionOf(pinned.invoke("receipt_create", pinned.context(sam.principal, "rest"), raw));
    expect(failed).toBe(JSON.stringify(ok.toBody()));
    expect(output).toContain(`drop_write_failed drop=${fixedId}`);
    expect(output).not.toContain("MARKER-b41d");
    const listed = await pinned.invoke("drops_list", pinned.context(sam.principal, "rest"), {});
    expect(listed.items).toEqual([ok.drop]);
  });

  it("doctor: Drops ok when nothing or only duplicates fired, warn with the next action when a recoverable class did", async () => {
    const sam = await fx.world.user("sam");
    const fresh = await fx.world.cairn.invoke("doctor", sam.ctx(), {});
    expect(fresh.checks.map((c) => [c.name, c.status])).toEqual([
      ["Database", "ok"],
      ["Drops", "ok"],
      ["Webhooks", "ok"],
      ["Inbox", "ok"],
      ["Notifications", "ok"],
    ]);
    await fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt());
    await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt()));
    const quiet = (await fx.world.cairn.invoke("doctor", sam.ctx(), {})).checks.find((c) => c.name === "Drops");
    expect(quiet).toMatchObject({ status: "ok", summary: expect.stringContaining("1 duplicate") });
    expect(quiet?.next_action).toBeUndefined();
    await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ changed: "Fixed it" })));
    const loud = (await fx.world.cairn.invoke("doctor", sam.ctx(), {})).checks.find((c) => c.name === "Drops");
    expect(loud).toMatchObject({ status: "warn", summary: expect.stringContaining("Drops (7d): 1 too-thin, 1 duplicate") });
    expect(loud?.next_action).toContain("at least three words");
  });

  it("doctor: Policy appears while require_evidence vetoed receipts and is still on; switching it off clears it", async () => {
    const sam = await fx.world.user("sam");
    const team = await fx.world.team([sam]);
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { owner: team, require_evidence: true });
    await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ owner: team })));
    const on = (await fx.world.cairn.invoke("doctor", sam.ctx(), {})).checks.find((c) => c.name === "Policy");
    expect(on).toMatchObject({ status: "warn", summary: `require_evidence of ${team} vetoed 1 receipt in 7 days and is still on.` });
    expect(on?.next_action).toContain("require_evidence false");
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { owner: team, require_evidence: false });
    const off = await fx.world.cairn.invoke("doctor", sam.ctx(), {});
    expect(off.checks.map((c) => c.name)).toEqual(["Database", "Drops", "Webhooks", "Inbox", "Notifications"]);
  });

  it("status: the last-receipt line and the rollup in gate order", async () => {
    const sam = await fx.world.user("sam");
    expect((await fx.world.cairn.invoke("status", sam.ctx(), {})).lines).toEqual(["Last receipt: none yet", "Drops (7d): none", "Inbox: nothing open"]);
    const last = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: "status" }));
    for (let i = 0; i < 3; i++) await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ learned: "status" })));
    await fx.world.cairn.invoke("policy_set", sam.ctx(), { require_evidence: true });
    await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt()));
    for (let i = 0; i < 2; i++) await rejectionOf(fx.world.cairn.invoke("receipt_create", sam.ctx(), minimalReceipt({ learned: "" })));
    const status = await fx.world.cairn.invoke("status", sam.ctx(), {});
    expect(status.last_receipt).toEqual({ id: last.id, title: last.title, owner: last.owner, created_at: last.created_at, url: last.url });
    expect(status.drops).toEqual({ window_days: 7, counts: { invalid: 2, "policy-vetoed": 1, duplicate: 3 } });
    expect(status.lines[0]).toBe(`Last receipt: ${last.title} (user:${sam.name}, just now, ${last.id})`);
    expect(status.lines[1]).toBe("Drops (7d): 2 invalid, 1 policy-vetoed, 3 duplicate");
  });

  it("drops_list: pages with a cursor, shows team drops to members only, and ages out of the window", async () => {
    let clock = new Date();
    const timed = createCairn(fx.store, { publicUrl: TEST_PUBLIC_URL }, () => clock);
    const sam = await fx.world.user("sam");
    const eve = await fx.world.user("eve");
    const team = await fx.world.team([sam]);
    for (const owner of [undefined, team, team]) {
      await rejectionOf(timed.invoke("receipt_create", timed.context(sam.principal, "cli"), minimalReceipt({ learned: "", ...(owner && { owner }) })));
    }
    const p1 = await timed.invoke("drops_list", timed.context(sam.principal, "cli"), { limit: 2 });
    expect(p1.items).toHaveLength(2);
    const p2 = await timed.invoke("drops_list", timed.context(sam.principal, "cli"), { limit: 2, cursor: p1.next_cursor ?? "" });
    expect(p2.items).toHaveLength(1);
    expect(p2.next_cursor).toBeNull();
    expect((await timed.invoke("drops_list", timed.context(sam.principal, "cli"), { owner: team })).items).toHaveLength(2);
    const peek = await rejectionOf(timed.invoke("drops_list", timed.context(eve.principal, "cli"), { owner: team }));
    expect(peek.code).toBe("forbidden");
    expect((await timed.invoke("drops_list", timed.context(eve.principal, "cli"), {})).items).toEqual([]);
    clock = new Date(clock.getTime() + 8 * 86_400_000);
    expect((await timed.invoke("drops_list", timed.context(sam.principal, "cli"), {})).items).toEqual([]);
    expect((await timed.invoke("drops_list", timed.context(sam.principal, "cli"), { days: 9 })).items).toHaveLength(3);
    expect((await timed.invoke("status", timed.context(sam.principal, "cli"), {})).lines[1]).toBe("Drops (7d): none");
  });
});
