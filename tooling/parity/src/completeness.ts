import type { ExpectedFailure } from "./expected-failures.js";
import type { Scenario } from "./types.js";

/** Operations no row of the table calls: each is a gap the suite names (a new operation starts here). */
export function operationsWithoutScenario(operations: readonly string[], scenarios: readonly Scenario[]): string[] {
  const covered = new Set(scenarios.map((s) => s.step.operation as string));
  return operations.filter((name) => !covered.has(name));
}

/** Entries of the expected-failures list that name no real scenario or surface. */
export function staleExpectedFailures(list: readonly ExpectedFailure[], scenarios: readonly Scenario[], surfaces: readonly string[]): string[] {
  const names = new Set(scenarios.map((s) => s.name));
  return list
    .filter((f) => !names.has(f.scenario) || !surfaces.includes(f.surface))
    .map((f) => `expected failure "${f.scenario}" on ${f.surface} names no scenario or surface of the suite`);
}
