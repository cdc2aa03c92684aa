import type { SurfaceResult } from "./run.js";

/**
 * Known gaps, checked in: each entry must still fail (the suite says so when it starts
 * passing, so the entry gets removed). Never skip a scenario instead.
 */
export interface ExpectedFailure {
  scenario: string;
  surface: string;
  reason: string;
}

export const EXPECTED_FAILURES: ExpectedFailure[] = [];

export const isExpectedFailure = (scenario: string, surface: string, list: readonly ExpectedFailure[] = EXPECTED_FAILURES) =>
  list.some((f) => f.scenario === scenario && f.surface === surface);

/**
 * What fails the suite for one scenario: every problem on a surface not listed as an
 * expected failure, and every listed surface that now agrees (so its entry is removed).
 */
export function unexpectedProblems(scenario: string, results: readonly SurfaceResult[], list: readonly ExpectedFailure[] = EXPECTED_FAILURES): string[] {
  const unexpected: string[] = [];
  for (const r of results) {
    const expectedToFail = isExpectedFailure(scenario, r.surface, list);
    if (expectedToFail && r.problems.length === 0) {
      unexpected.push(`scenario "${scenario}" now agrees on surface ${r.surface}: remove it from EXPECTED_FAILURES`);
    }
    if (!expectedToFail) unexpected.push(...r.problems);
  }
  return unexpected;
}
