export { statusOf } from "./adapter.js";
export { createRestApp, type RestOptions } from "./app.js";
export { ROUTES } from "./routes.js";
