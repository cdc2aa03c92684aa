// Shared vitest settings for every workspace package: resolve workspace packages to
// their TypeScript sources (the "@cairn/source" export condition) so tests never need
// a prior build of their dependencies.
import { fileURLToPath } from "node:url";
import { defaultServerConditions } from "vite";

export const sharedTest = {
  environment: "node",
  testTimeout: 30_000,
  hookTimeout: 60_000,
  globalSetup: [fileURLToPath(new URL("./global-setup.mjs", import.meta.url))],
};

export const sharedResolve = { conditions: ["@cairn/source", ...defaultServerConditions] };
export const sharedSsr = { resolve: { conditions: ["@cairn/source", ...defaultServerConditions] } };
