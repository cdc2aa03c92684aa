import { sharedResolve, sharedSsr, sharedTest } from "@cairn/vitest-config";
import { configDefaults, defineProject } from "vitest/config";
import { LATENCY_FILES } from "./vitest.latency.config.js";

export default defineProject({
  resolve: sharedResolve,
  ssr: sharedSsr,
  // The files that time the server run on their own, after everything else (vitest.latency.config.ts).
  test: { ...sharedTest, name: "hostile", testTimeout: 180_000, exclude: [...configDefaults.exclude, ...LATENCY_FILES] },
});
