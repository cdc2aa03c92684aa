import { latencyExcludes, sharedResolve, sharedSsr, sharedTest } from "@cairn/vitest-config";
import { configDefaults, defineProject } from "vitest/config";

export default defineProject({
  resolve: sharedResolve,
  ssr: sharedSsr,
  // serve.hostile runs in the root's `latency` project, alone, after everything else (ADR 0060).
  test: { ...sharedTest, name: "hostile", testTimeout: 180_000, exclude: [...configDefaults.exclude, ...latencyExcludes] },
});
