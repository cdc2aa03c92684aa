import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "tooling/parity", "tooling/imports", "tooling/hostile", "tooling/browser", "tooling/openapi"],
  },
});
