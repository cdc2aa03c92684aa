import { latencyExcludes, sharedResolve, sharedSsr, sharedTest } from "@cairn/vitest-config";
import { configDefaults, defineProject } from "vitest/config";

export default defineProject({
  resolve: sharedResolve,
  ssr: sharedSsr,
  // otlp-bounds runs in the root's `latency` project, alone, after everything else (ADR 0060).
  test: { ...sharedTest, name: "cli", exclude: [...configDefaults.exclude, ...latencyExcludes] },
});
