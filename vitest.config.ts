import { defineConfig } from "vitest/config";
import { FileDurations } from "./tooling/vitest/durations-reporter.mjs";
import { LongestFirst } from "./tooling/vitest/sequencer.mjs";

export default defineConfig({
  test: {
    projects: [
      "packages/*",
      "apps/*",
      "tooling/parity",
      "tooling/imports",
      "tooling/hostile",
      "vitest.latency.config.ts",
      "tooling/browser",
      "tooling/openapi",
    ],
    // Most test files wait on a database, a spawned server or a browser, not on this process's
    // CPU: three files at a time on two cores took the suite from 21.6 to 12.5 minutes (ADR 0044).
    maxWorkers: 3,
    // The projects with the longest files start first, so no long file runs alone at the end (ADR 0071).
    sequence: { sequencer: LongestFirst },
    // CAIRN_RECORD_DURATIONS=1 pnpm test writes each file's seconds for the sequencer (ADR 0084).
    reporters: ["default", new FileDurations()],
  },
});
