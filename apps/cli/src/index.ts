export { startServer, type RunningServer } from "./server.js";
export { EXIT, type ExitCode, exitCodeOf } from "./exit-codes.js";
