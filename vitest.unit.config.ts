import { configDefaults, defineConfig } from "vitest/config";
import { FileDurations } from "./tooling/vitest/durations-reporter.mjs";
import { LongestFirst } from "./tooling/vitest/sequencer.mjs";

/**
 * `pnpm test:unit`: the tests that run inside the test process — core's verbs on both
 * stores, the adapters through their in-process apps, the import rules, the parity engine
 * and its in-process drivers. Left to `pnpm test`: files that spawn `cairn serve` or the
 * built binary, browsers, PgBouncer, and the latency project.
 */
const SPAWNING = [
  "**/*.process.test.ts",
  "**/*.serve.test.ts",
  "**/*.browser.test.ts",
  "**/*.hostile.test.ts",
  "**/*.integrator.test.ts",
  // PgBouncer as a process.
  "**/pooler.test.ts",
  // The hook script run as Claude Code runs it.
  "**/claude-code-stop-hook*.test.ts",
  // The parity scenarios run through the built CLI binary.
  "**/parity-[0-9].test.ts",
];
const exclude = [...configDefaults.exclude, ...SPAWNING];

// Both stores, and not the concurrency tests' third driver: PgBouncer runs as a process.
process.env.CAIRN_TEST_DRIVERS ??= "pglite,pg";

/** The CLI's tests mostly run the binary; these run in process. */
const CLI_IN_PROCESS = ["mcp-http", "surfaces", "terminal", "transport"].map((name) => `src/__tests__/${name}.test.ts`);

export default defineConfig({
  test: {
    projects: [
      { extends: "./packages/core/vitest.config.ts", root: "./packages/core", test: { exclude } },
      { extends: "./apps/rest/vitest.config.ts", root: "./apps/rest", test: { exclude } },
      { extends: "./apps/mcp/vitest.config.ts", root: "./apps/mcp", test: { exclude } },
      { extends: "./apps/web/vitest.config.ts", root: "./apps/web", test: { exclude } },
      { extends: "./apps/cli/vitest.config.ts", root: "./apps/cli", test: { include: CLI_IN_PROCESS, exclude } },
      { extends: "./tooling/imports/vitest.config.ts", root: "./tooling/imports", test: { exclude } },
      { extends: "./tooling/parity/vitest.config.ts", root: "./tooling/parity", test: { exclude } },
    ],
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    reporters: ["default", new FileDurations()],
  },
});
