import { createServer } from "node:net";
import { classifyDrop } from "@cairn/core";
import { minimalReceipt } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliDriver } from "../drivers/cli.js";
import { coreDriver } from "../drivers/core.js";
import { mcpStdioDriver } from "../drivers/mcp.js";
import { restDriver } from "../drivers/rest.js";
import { type ParityServer, startParityServer } from "../env.js";
import { type ParityEnv, runScenario } from "../run.js";
import { SCENARIOS } from "../scenarios.js";
import type { Driver, Outcome, Scenario } from "../types.js";

const scenario = (name: string): Scenario => {
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new Error(`scenario ${name} missing`);
  return found;
};

/** A surface whose adapter renamed one error field: the suite must catch it and name the surface. */
function withRenamedIssueField(inner: Driver): Driver {
  const mutate = (o: Outcome | null): Outcome | null =>
    !o || o.ok ? o : { ok: false, error: { ...o.error, issues: o.error.issues?.map((i) => ({ ...i, field: i.field.replace("learned", "learnt") })) } };
  return {
    ...inner,
    name: `${inner.name}-with-a-drifted-adapter`,
    call: async (actor, operation, input) => mutate(await (inner.call as NonNullable<Driver["call"]>)(actor, operation, input)),
  };
}

/** A loopback port nothing listens on (bound once, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("the parity engine", () => {
  let parity: ParityServer;
  let env: ParityEnv;
  beforeAll(async () => {
    parity = await startParityServer("pglite");
    env = { newActor: () => parity.newActor(), reference: coreDriver(parity.server.cairn), serverUrl: parity.server.cairn.config.publicUrl };
  });
  afterAll(async () => parity?.close());

  it.each([
    ["rest", () => restDriver(parity.server.url)],
    ["cli", () => cliDriver(parity.server.url)],
  ])("fails a drifted %s adapter with a message naming the scenario and the surface, with a diff", async (surface, make) => {
    const [result] = await runScenario(env, [withRenamedIssueField(make())], scenario("empty learned"));
    expect(result?.problems).toHaveLength(1);
    expect(result?.problems[0]).toContain(`scenario "empty learned": surface ${surface}-with-a-drifted-adapter differs from core`);
    expect(result?.problems[0]).toMatch(/- +"field": "learned"/);
    expect(result?.problems[0]).toMatch(/\+ +"field": "learnt"/);
  });

  it("flags a write, and a refusal's drop, recorded under the wrong surface", async () => {
    const mislabelled = { ...restDriver(parity.server.url), name: "claims-mcp", surface: "mcp" as const };
    const [write] = await runScenario(env, [mislabelled], scenario("minimal receipt"));
    expect(write?.problems).toEqual(['scenario "minimal receipt": surface claims-mcp recorded provenance surface rest, expected mcp']);
    const [refusal] = await runScenario(env, [mislabelled], scenario("too thin"));
    expect(refusal?.problems).toEqual([
      'scenario "too thin": surface claims-mcp recorded drop surface rest, expected mcp',
      `scenario "too thin": surface claims-mcp said next_action ${JSON.stringify(classifyDrop("too-thin", "rest", null, parity.server.url).next_action)}, core phrases ${JSON.stringify(classifyDrop("too-thin", "mcp", null, parity.server.url).next_action)}`,
    ]);
  });

  it("reports a surface that fails outright against that surface, with its reason", async () => {
    const unreachable = mcpStdioDriver(`http://127.0.0.1:${await closedPort()}`);
    const [result] = await runScenario(env, [unreachable], scenario("minimal receipt"));
    expect(result?.problems).toHaveLength(1);
    expect(result?.problems[0]).toMatch(/^scenario "minimal receipt": surface mcp-stdio failed: mcp-stdio could not connect: .*cannot reach the Cairn server/s);
    await unreachable.close?.();
  });

  it("applies a row's policy to every driver's own actor, through the reference", async () => {
    const [result] = await runScenario(env, [restDriver(parity.server.url)], scenario("policy veto"));
    expect(result?.problems).toEqual([]);
    expect(result?.result).toMatchObject({ ok: false, error: { drop: { category: "policy-vetoed", owner: "user:<user>" } } });
  });

  it("fails a row whose reference answer is not what the row says it tests", async () => {
    const vacuous: Scenario = {
      name: "vacuous",
      expect: "ok",
      policy: { require_evidence: true },
      step: { operation: "receipt_create", input: minimalReceipt() },
    };
    await expect(runScenario(env, [restDriver(parity.server.url)], vacuous)).rejects.toThrow(
      'scenario "vacuous": the reference core answered validation_failed, expected ok',
    );
    const wrongDrop: Scenario = { ...scenario("too thin"), name: "wrong drop", drop: "invalid" };
    await expect(runScenario(env, [], wrongDrop)).rejects.toThrow("left a drop of category too-thin, expected invalid");
  });
});
