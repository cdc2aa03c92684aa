// Shared vitest settings for every workspace package: resolve workspace packages to
// their TypeScript sources (the "@cairn/source" export condition) so tests never need
// a prior build of their dependencies.
import { fileURLToPath } from "node:url";
import { defaultServerConditions } from "vite";

export const sharedTest = {
  environment: "node",
  // A worker runs one file after another of its project without loading every module again:
  // loading was half of the suite's time (ADR 0071). Every file owns its database and port and
  // nothing here mocks a module or changes the environment, so files share only warm modules.
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  globalSetup: [fileURLToPath(new URL("./global-setup.mjs", import.meta.url))],
};

export const sharedResolve = { conditions: ["@cairn/source", ...defaultServerConditions] };
/**
 * vitest hands the SSR conditions to Node as `--conditions` for the dependencies it leaves
 * to Node, and Node applies them to `require` too: with Vite's `module` among them, a CommonJS
 * package (prom-client) that requires `@opentelemetry/api` got that package's bundler-only ESM
 * build and failed to load. Without it, dependencies resolve in tests as they do in production.
 */
export const sharedSsr = { resolve: { conditions: ["@cairn/source", ...defaultServerConditions.filter((c) => c !== "module")] } };

/**
 * Test files that hold a real server to a latency bound (SPEC §14: `/healthz` within 1 s
 * while hostile or huge requests are in flight), from the repository's root. They time the
 * server, not the machine, so they run in the `latency` project (vitest.latency.config.ts at
 * the root): after every other file, one at a time (ADR 0060). Their own projects skip them.
 */
export const LATENCY_FILES = ["apps/cli/src/__tests__/otlp-bounds.process.test.ts", "tooling/hostile/src/__tests__/serve.hostile.test.ts"];

/** For a project's `exclude`: the latency files wherever its root is. */
export const latencyExcludes = LATENCY_FILES.map((file) => `**/${file.slice(file.lastIndexOf("/") + 1)}`);
