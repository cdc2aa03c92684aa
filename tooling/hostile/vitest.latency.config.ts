import { sharedResolve, sharedSsr, sharedTest } from "@cairn/vitest-config";
import { defineProject } from "vitest/config";

/**
 * The hostile files that hold the server to a latency bound (SPEC §14: `/healthz` within 1 s
 * while hostile requests are in flight). They time the server, not the machine: run inside
 * the suite's 3-wide pool on 2 cores, the other files' servers and browsers took the CPU and
 * a poll crossed the bound in 2 CI runs of 3 while the file passed alone. So they run last,
 * one file at a time, with nothing else running (docs/adr/0060).
 */
export const LATENCY_FILES = ["src/__tests__/serve.hostile.test.ts"];

export default defineProject({
  resolve: sharedResolve,
  ssr: sharedSsr,
  test: {
    ...sharedTest,
    name: "hostile-latency",
    include: LATENCY_FILES,
    testTimeout: 180_000,
    fileParallelism: false,
    sequence: { groupOrder: 1 },
  },
});
