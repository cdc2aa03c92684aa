import { DRIVERS } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreDriver } from "../drivers/core.js";
import { restDriver } from "../drivers/rest.js";
import { webDriver } from "../drivers/web.js";
import { type ParityServer, startParityServer } from "../env.js";
import { EXPECTED_FAILURES, isExpectedFailure } from "../expected-failures.js";
import { runScenario } from "../run.js";
import { SCENARIOS } from "../scenarios.js";
import type { Driver } from "../types.js";

describe.each(DRIVERS)("parity on %s", (store) => {
  let parity: ParityServer;
  let drivers: Driver[];
  beforeAll(async () => {
    parity = await startParityServer(store);
    drivers = [restDriver(parity.server.url), await webDriver()];
  });
  afterAll(async () => {
    for (const d of drivers ?? []) await d.close?.();
    await parity?.close();
  });

  it.each(SCENARIOS.map((s) => [s.name, s] as const))("%s: every surface agrees", async (_name, scenario) => {
    const env = { newActor: () => parity.newActor(), reference: coreDriver(parity.server.cairn) };
    const results = await runScenario(env, drivers, scenario);
    const unexpected: string[] = [];
    for (const r of results) {
      const expectedToFail = isExpectedFailure(scenario.name, r.surface);
      if (expectedToFail && r.problems.length === 0) {
        unexpected.push(`scenario "${scenario.name}" now agrees on surface ${r.surface}: remove it from EXPECTED_FAILURES`);
      }
      if (!expectedToFail) unexpected.push(...r.problems);
    }
    expect(unexpected, unexpected.join("\n\n")).toEqual([]);
  });

  it("expected failures name real scenarios", () => {
    for (const f of EXPECTED_FAILURES) expect(SCENARIOS.map((s) => s.name)).toContain(f.scenario);
  });
});
