import { sharedResolve, sharedTest } from "@cairn/vitest-config";
import { defineProject } from "vitest/config";

export default defineProject({
  resolve: sharedResolve,
  test: { ...sharedTest, name: "core" },
});
