import { DRIVERS } from "@cairn/core/testing";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileCase, hostileCase } from "../bodies.js";
import { type Answer, envelopeProblem, viaMcp, viaRest } from "../targets.js";
import { type HostileWorld, openHostileWorld } from "../world.js";

/** At least 10,000 bodies per run, across all verbs, split over the stores under test. */
const TOTAL = Number(process.env.HOSTILE_BODIES ?? 10_000);
const PER_STORE = Math.ceil(TOTAL / DRIVERS.length);
const SEED = Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31);
/** Refused receipts per caller before its drops are checked: below the 200 newest an owner keeps. */
const DROPS_PER_CALLER = 150;
const CONCURRENCY = 8;
/** One body in this many goes over MCP (HTTP); the rest over REST. */
const MCP_EVERY = 4;

describe.each(DRIVERS)(`hostile bodies (seed ${SEED}) on %s`, (driver) => {
  let hw: HostileWorld;
  beforeAll(async () => {
    hw = await openHostileWorld(driver);
  });
  afterAll(async () => hw?.close());

  it(`${PER_STORE} generated bodies over REST and MCP: no 5xx, the error envelope with field paths, every refused receipt's drop listed`, async () => {
    const cases = fc.sample(hostileCase, { numRuns: PER_STORE, seed: SEED + (driver === "pg" ? 1 : 0) });
    const failures: string[] = [];
    let caller = await hw.caller();
    let drops: string[] = [];
    const checkDrops = async () => {
      const res = await hw.fetch("/v1/drops?limit=200", { headers: { authorization: `Bearer ${caller.user.token}` } });
      expect(res.status).toBe(200);
      const listed = new Set(((await res.json()) as { items: Array<{ id: string }> }).items.map((d) => d.id));
      const missing = drops.filter((id) => !listed.has(id));
      if (missing.length > 0) failures.push(`${missing.length} of ${drops.length} drops not listed for ${caller.user.name}`);
      drops = [];
    };
    const perOp = new Map<string, number>();
    let accepted = 0;
    for (let at = 0; at < cases.length; at += CONCURRENCY) {
      const batch = cases.slice(at, at + CONCURRENCY);
      const answers = await Promise.all(
        batch.map(async (c: HostileCase, i): Promise<[HostileCase, Answer, string]> => {
          const input = c.build(caller.fixture);
          const surface = (at + i) % MCP_EVERY === 0 ? "mcp" : "rest";
          const send = surface === "mcp" ? viaMcp : viaRest;
          return [c, await send(hw.fetch, c.op, input, caller.user.token), surface];
        }),
      );
      for (const [c, answer, surface] of answers) {
        perOp.set(c.op, (perOp.get(c.op) ?? 0) + 1);
        if (answer.status < 400) accepted++;
        // The caller's token is valid throughout: a 401 would mean the suite stopped reaching the verbs.
        const problem = answer.status === 401 ? "401 for a valid token" : envelopeProblem(answer);
        if (problem) failures.push(`${surface} ${c.op} (${c.label}): ${problem}`);
        if (c.op === "receipt_create" && answer.status >= 400 && !answer.error?.code.startsWith("rpc ")) {
          if (answer.error?.drop?.id) drops.push(answer.error.drop.id);
          else if (answer.status !== 401) failures.push(`${surface} receipt_create (${c.label}): refused without a drop`);
        }
      }
      if (drops.length >= DROPS_PER_CALLER) {
        await checkDrops();
        caller = await hw.caller();
      }
      if (failures.length > 20) break;
    }
    await checkDrops();
    expect(failures, failures.slice(0, 20).join("\n")).toEqual([]);
    // Some hostile bodies are still valid (invisible characters inside visible text, say): the verbs were reached.
    expect(accepted).toBeGreaterThan(0);
    // Every verb was exercised.
    expect([...perOp.keys()].sort()).toEqual(Object.keys((await import("@cairn/core")).OPERATIONS).sort());
  });
});
