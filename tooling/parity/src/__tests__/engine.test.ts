import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreDriver } from "../drivers/core.js";
import { restDriver } from "../drivers/rest.js";
import { type ParityServer, startParityServer } from "../env.js";
import { runScenario } from "../run.js";
import { SCENARIOS } from "../scenarios.js";
import type { Driver, Outcome } from "../types.js";

/** A surface whose adapter renamed one error field: the suite must catch it and name the surface. */
function withRenamedIssueField(inner: Driver): Driver {
  const mutate = (o: Outcome): Outcome =>
    o.ok ? o : { ok: false, error: { ...o.error, issues: o.error.issues?.map((i) => ({ ...i, field: i.field.replace("learned", "learnt") })) } };
  return {
    ...inner,
    name: "rest-with-a-drifted-adapter",
    createReceipt: async (actor, input) => mutate(await (inner.createReceipt as NonNullable<Driver["createReceipt"]>)(actor, input)),
  };
}

describe("the parity engine", () => {
  let parity: ParityServer;
  beforeAll(async () => {
    parity = await startParityServer("pglite");
  });
  afterAll(async () => parity?.close());

  it("fails a drifted adapter with a message naming the scenario and the surface, with a diff", async () => {
    const scenario = SCENARIOS.find((s) => s.name === "empty learned");
    if (!scenario) throw new Error("scenario missing");
    const env = { newActor: () => parity.newActor(), reference: coreDriver(parity.server.cairn) };
    const drifted = withRenamedIssueField(restDriver(parity.server.url));
    const [result] = await runScenario(env, [drifted], scenario);
    expect(result?.problems).toHaveLength(1);
    expect(result?.problems[0]).toContain('scenario "empty learned": surface rest-with-a-drifted-adapter differs from core');
    expect(result?.problems[0]).toMatch(/- +"field": "learned"/);
    expect(result?.problems[0]).toMatch(/\+ +"field": "learnt"/);
  });

  it("flags a write recorded under the wrong provenance surface", async () => {
    const scenario = SCENARIOS.find((s) => s.name === "minimal receipt");
    if (!scenario) throw new Error("scenario missing");
    const env = { newActor: () => parity.newActor(), reference: coreDriver(parity.server.cairn) };
    const mislabelled = { ...restDriver(parity.server.url), name: "claims-mcp", surface: "mcp" as const };
    const [result] = await runScenario(env, [mislabelled], scenario);
    expect(result?.problems.join("\n")).toContain("recorded provenance surface rest, expected mcp");
  });
});
