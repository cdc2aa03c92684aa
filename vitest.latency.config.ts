import { defineProject } from "vitest/config";
import { LATENCY_FILES, sharedResolve, sharedSsr, sharedTest } from "./tooling/vitest/index.mjs";

/**
 * The files that hold a real server to a latency bound (`LATENCY_FILES`). Inside the suite's
 * pool (three files at a time on two cores) the other files' servers, databases and
 * browsers took the CPU, and a `/healthz` poll crossed 1 s in CI while each file passed
 * alone. So they start after everything else has finished and run one at a time (ADR 0060).
 */
export default defineProject({
  resolve: sharedResolve,
  ssr: sharedSsr,
  test: {
    ...sharedTest,
    name: "latency",
    include: LATENCY_FILES,
    testTimeout: 180_000,
    fileParallelism: false,
    // Each starts in a fresh worker: the bound is on the server, not on what an earlier file left.
    isolate: true,
    sequence: { groupOrder: 1 },
  },
});
