// Shared vitest settings for every workspace package: resolve workspace packages to
// their TypeScript sources (the "@cairn/source" export condition) so tests never need
// a prior build of their dependencies.
export const sharedTest = {
  environment: "node",
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export const sharedResolve = {
  conditions: ["@cairn/source"],
};
