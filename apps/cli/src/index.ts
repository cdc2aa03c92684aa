export { startServer, type RunningServer } from "./server.js";
export { EXIT, type ExitCode, exitCodeOf } from "./exit-codes.js";
export { cliCommandOf } from "./commands/index.js";
export type { CommandLine } from "./commands/define.js";
export type { CliIo } from "./io.js";
export { main } from "./main.js";
