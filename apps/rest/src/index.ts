export { statusOf } from "./adapter.js";
export { createRestApp, type RestOptions } from "./app.js";
export { metricsResponse } from "./metrics.js";
export { defaultRoute, ROUTES, type RouteSpec, requestOf, routeOf } from "./routes.js";
