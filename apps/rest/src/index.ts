export { statusOf } from "./adapter.js";
export { createRestApp, type RestOptions } from "./app.js";
export { defaultRoute, requestOf, routeOf, ROUTES, type RouteSpec } from "./routes.js";
export { metricsResponse } from "./metrics.js";
