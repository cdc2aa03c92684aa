import { describe, expect, it } from "vitest";
import { createCairn } from "../cairn.js";
import { PerTurn } from "../store/per-turn.js";
import type { Store } from "../store/port.js";
import { DRIVERS, minimalReceipt, TEST_PUBLIC_URL } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

/** Receipt writes that arrive together share one call and one commit (ADR 0066); each is answered as if sent alone. */
describe.each(DRIVERS)("receipt writes gathered into one call on %s", (driver) => {
  const fx = useTestWorld(driver);

  /** A `PerTurn` whose call computes `expression` of each input `x` in the database, and the inputs of every call it sent. */
  const gathered = (most: number, expression: string) => {
    const sent: number[][] = [];
    const calls = new PerTurn<number, number>({
      most,
      send: async (inputs) => {
        sent.push(inputs);
        const rows = await fx.store.query<{ v: number }>(`select (${expression})::int as v from unnest($1::int[]) with ordinality as u(x, n) order by n`, [
          inputs,
        ]);
        return rows.map((r) => r.v);
      },
    });
    return { sent, calls };
  };

  it("writes of several users at once are each stored, and a same-body pair among them is one receipt and a duplicate", async () => {
    const users = await Promise.all(["ana", "ben", "cy"].map((name) => fx.world.user(name)));
    const twin = minimalReceipt({ learned: "sent twice at once" });
    const ana = users[0] as (typeof users)[number];
    const settled = await Promise.allSettled([
      ...users.map((u) => fx.world.cairn.invoke("receipt_create", u.ctx(), minimalReceipt({ learned: `from ${u.name}` }))),
      fx.world.cairn.invoke("receipt_create", ana.ctx(), twin),
      fx.world.cairn.invoke("receipt_create", ana.ctx(), twin),
    ]);
    const created = settled.filter((s) => s.status === "fulfilled").map((s) => s.value);
    expect(created).toHaveLength(4);
    expect(new Set(created.map((a) => a.id)).size).toBe(4);
    const refused = settled.filter((s) => s.status === "rejected").map((s) => (s.reason as { code: string }).code);
    expect(refused).toEqual(["duplicate"]);
    for (const [i, u] of users.entries()) {
      const answer = created[i] as (typeof created)[number];
      expect(answer.owner).toBe(`user:${u.name}`);
      const read = await fx.world.cairn.invoke("artifact_read", u.ctx(), { id: answer.id });
      expect(read.metadata?.learned).toBe(`from ${u.name}`);
    }
  });

  it("a write the database refuses fails alone: the others sent in the same turn are stored", async () => {
    const users = await Promise.all(["dee", "eve", "fay"].map((name) => fx.world.user(name)));
    // A real refusal inside the one call: a trigger that rejects one title, as a constraint would.
    await fx.store.query(`create or replace function refuse_one() returns trigger language plpgsql as $$
      begin if new.title = 'refused by the database' then raise exception 'refused for the test'; end if; return new; end $$`);
    await fx.store.query("create trigger refuse_one before insert on artifacts for each row execute function refuse_one()");
    try {
      const [dee, eve, fay] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
      const settled = await Promise.allSettled([
        fx.world.cairn.invoke("receipt_create", dee.ctx(), minimalReceipt({ learned: "dee's" })),
        fx.world.cairn.invoke("receipt_create", eve.ctx(), { ...minimalReceipt({ learned: "eve's" }), title: "refused by the database" }),
        fx.world.cairn.invoke("receipt_create", fay.ctx(), minimalReceipt({ learned: "fay's" })),
      ]);
      expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      const owners = await fx.store.query<{ owner: string }>("select owner from artifacts where owner = any($1::text[]) order by owner", [
        users.map((u) => `user:${u.name}`),
      ]);
      expect(owners.map((r) => r.owner)).toEqual([`user:${dee.name}`, `user:${fay.name}`]);
    } finally {
      await fx.store.query("drop trigger refuse_one on artifacts");
      await fx.store.query("drop function refuse_one()");
    }
  });

  it("a gathered call that committed but lost its answer: each write is answered as created, never as a duplicate of itself", async () => {
    const users = await Promise.all(["gil", "hal", "ida"].map((name) => fx.world.user(name)));
    let lost = 0;
    // The connection drops after COMMIT, before its answer arrives: the call wrote everything and the caller cannot know.
    const losing: Store = {
      driver: fx.store.driver,
      ...(fx.store.changes && { changes: fx.store.changes }),
      async query<T>(text: string, params?: unknown[]) {
        const rows = await fx.store.query<T>(text, params);
        if (lost === 0 && text.includes("cairn_write_receipts(") && (JSON.parse(String(params?.[0])) as unknown[]).length > 1) {
          lost++;
          throw new Error("Connection terminated unexpectedly");
        }
        return rows;
      },
      afterCommit: (fn) => fx.store.afterCommit(fn),
      transaction: (fn, options) => fx.store.transaction(fn, options),
      exec: (script) => fx.store.exec(script),
      close: async () => {},
    };
    const cairn = createCairn(losing, { publicUrl: TEST_PUBLIC_URL });
    // One write each first, alone: with every cache warm, the three below reach the write in the same turn and share a call.
    for (const u of users) await cairn.invoke("receipt_create", cairn.context(u.principal, "rest"), minimalReceipt({ learned: `warm ${u.name}` }));
    const settled = await Promise.allSettled(
      users.map((u) => cairn.invoke("receipt_create", cairn.context(u.principal, "rest"), minimalReceipt({ learned: `lost answer for ${u.name}` }))),
    );
    expect(lost).toBe(1);
    expect(settled.map((s) => (s.status === "rejected" ? (s.reason as { code: string }).code : "created"))).toEqual(["created", "created", "created"]);
    for (const [i, u] of users.entries()) {
      const answer = (settled[i] as PromiseFulfilledResult<{ id: string; owner: string }>).value;
      expect(answer.owner).toBe(`user:${u.name}`);
      const stored = await fx.store.query<{ id: string }>("select id from artifacts where owner = $1 and metadata->>'learned' like 'lost answer%'", [
        `user:${u.name}`,
      ]);
      expect(stored.map((r) => r.id)).toEqual([answer.id]);
      const drops = await fx.store.query("select 1 from drops where owner = $1", [`user:${u.name}`]);
      expect(drops).toHaveLength(0);
    }
  });

  it("calls made in one turn go out as one call, in order; a lone call waits for nothing else", async () => {
    const { sent, calls: squares } = gathered(3, "x * x");
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => squares.call(n)))).toEqual([1, 4, 9, 16, 25]);
    expect(sent).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(await squares.call(6)).toBe(36);
    expect(sent).toHaveLength(3);
  });

  it("a full call goes at once, before the turn ends, so the database starts on it while the turn's later inputs arrive", async () => {
    const { sent, calls: doubles } = gathered(2, "x * 2");
    const answers = [1, 2].map((n) => doubles.call(n));
    // Nothing has yielded to the event loop yet: the full call is already on its way, the next input not.
    expect(sent).toEqual([[1, 2]]);
    answers.push(doubles.call(3));
    expect(sent).toEqual([[1, 2]]);
    expect(await Promise.all(answers)).toEqual([2, 4, 6]);
    expect(sent).toEqual([[1, 2], [3]]);
  });

  it("a call that fails answers each of its inputs with the database's error, and the next turn's call is sent afresh", async () => {
    const { sent, calls: inverses } = gathered(10, "100 / x");
    const settled = await Promise.allSettled([4, 0, 5].map((n) => inverses.call(n)));
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected"]);
    // 22012: division_by_zero, the one refusal of the call, given to each input.
    for (const s of settled) expect(String((s as PromiseRejectedResult).reason)).toMatch(/22012/);
    expect(await Promise.all([4, 5].map((n) => inverses.call(n)))).toEqual([25, 20]);
    expect(sent).toEqual([
      [4, 0, 5],
      [4, 5],
    ]);
  });

  it("a call carries at most its weight: an input heavier than the bound goes alone, the rest fill calls up to it", async () => {
    const sent: string[][] = [];
    const lengths = new PerTurn<string, number>({
      most: 10,
      mostSize: 10,
      size: (s) => s.length,
      send: async (inputs) => {
        sent.push(inputs);
        const rows = await fx.store.query<{ n: number }>("select length(s)::int as n from unnest($1::text[]) with ordinality as u(s, i) order by i", [inputs]);
        return rows.map((r) => r.n);
      },
    });
    const inputs = ["aaaa", "bbbb", "cccc", "d".repeat(25), "ee"];
    expect(await Promise.all(inputs.map((s) => lengths.call(s)))).toEqual([4, 4, 4, 25, 2]);
    expect(sent).toEqual([["aaaa", "bbbb"], ["cccc"], ["d".repeat(25)], ["ee"]]);
  });
});
