export { coreDriver } from "./drivers/core.js";
export { restDriver } from "./drivers/rest.js";
export { webDriver } from "./drivers/web.js";
export { startParityServer, type ParityServer } from "./env.js";
export { EXPECTED_FAILURES, isExpectedFailure } from "./expected-failures.js";
export { diff, normalize } from "./normalize.js";
export { runScenario, type ParityEnv, type SurfaceResult } from "./run.js";
export { SCENARIOS } from "./scenarios.js";
export type * from "./types.js";
