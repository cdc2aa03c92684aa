export type { CommandLine } from "./commands/define.js";
export { cliCommandOf } from "./commands/index.js";
export { EXIT, type ExitCode, exitCodeOf } from "./exit-codes.js";
export type { CliIo } from "./io.js";
export { main } from "./main.js";
export { type RunningServer, startServer } from "./server.js";
