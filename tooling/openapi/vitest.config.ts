import { sharedResolve, sharedSsr, sharedTest } from "@cairn/vitest-config";
import { defineProject } from "vitest/config";

export default defineProject({
  resolve: sharedResolve,
  ssr: sharedSsr,
  test: { ...sharedTest, name: "openapi", testTimeout: 120_000 },
});
