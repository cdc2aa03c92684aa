export { startServer, type RunningServer } from "./server.js";
