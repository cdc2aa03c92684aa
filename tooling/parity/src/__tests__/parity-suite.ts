import { ADAPTER_DRIVERS } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staleExpectedFailures } from "../completeness.js";
import { cliDriver } from "../drivers/cli.js";
import { coreDriver } from "../drivers/core.js";
import { mcpHttpDriver, mcpStdioDriver } from "../drivers/mcp.js";
import { restDriver } from "../drivers/rest.js";
import { webDriver } from "../drivers/web.js";
import { type ParityServer, startParityServer } from "../env.js";
import { EXPECTED_FAILURES, unexpectedProblems } from "../expected-failures.js";
import { runScenario } from "../run.js";
import { SCENARIOS } from "../scenarios.js";
import type { Driver } from "../types.js";

/**
 * The parity suite over one share of the scenarios (`part` of `parts`, in registry order):
 * each share is its own test file with its own server and browser, so the shares run side
 * by side instead of one file holding the suite's tail. Scenarios are independent: each
 * makes its own actors.
 */
export function describeParity(part: number, parts: number): void {
  const size = Math.ceil(SCENARIOS.length / parts);
  const share = SCENARIOS.slice(part * size, (part + 1) * size);
  describe.each(ADAPTER_DRIVERS)(`parity on %s (scenarios ${part * size + 1}–${part * size + share.length} of ${SCENARIOS.length})`, (store) => {
    let parity: ParityServer;
    let drivers: Driver[];
    beforeAll(async () => {
      parity = await startParityServer(store);
      const url = parity.server.url;
      drivers = [
        restDriver(url),
        mcpHttpDriver(url),
        mcpStdioDriver(url),
        mcpHttpDriver(url, "2026"),
        mcpStdioDriver(url, "2026"),
        cliDriver(url),
        await webDriver(),
      ];
    });
    afterAll(async () => {
      for (const d of drivers ?? []) await d.close?.();
      await parity?.close();
    });

    it.each(share.map((s) => [s.name, s] as const))("%s: every surface agrees", async (_name, scenario) => {
      const env = { newActor: () => parity.newActor(), reference: coreDriver(parity.server.cairn), serverUrl: parity.server.cairn.config.publicUrl };
      const unexpected = unexpectedProblems(scenario.name, await runScenario(env, drivers, scenario));
      expect(unexpected, unexpected.join("\n\n")).toEqual([]);
    });

    // Checked once, in the first share: it reads the whole registry.
    if (part === 0)
      it("expected failures name real scenarios and surfaces", () => {
        const surfaces = drivers.map((d) => d.name);
        expect(staleExpectedFailures(EXPECTED_FAILURES, SCENARIOS, surfaces)).toEqual([]);
        // The check itself catches a stale entry, so an empty list above means something.
        expect(staleExpectedFailures([{ scenario: "no such row", surface: "rest", reason: "" }], SCENARIOS, surfaces)).toHaveLength(1);
      });
  });
}
