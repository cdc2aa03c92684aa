import { type Cairn, CairnError, OPERATIONS, operationNames, type ProxyTrust } from "@cairn/core";
import { securityHeaders } from "@cairn/web/security-headers";
import { OpenAPIHono } from "@hono/zod-openapi";
import { errorResponse, type RestEnv } from "./adapter.js";
import { mountBackup } from "./backup.js";
import { DOCS_CSP, renderDocsPage } from "./docs/index.js";
import { mountFeedRoute } from "./feed.js";
import { mountHealth } from "./health.js";
import { mountMetrics, recordRequests } from "./metrics.js";
import { bearerAuth, requestIds } from "./middleware.js";
import { mountOAuthRoutes } from "./oauth.js";
import { openApiDocument } from "./openapi.js";
import { mountOperationRoutes } from "./operation-routes.js";
import { mountOtlpRoutes } from "./otlp.js";
import { forwardedHeaders } from "./proxy.js";
import { routeOf } from "./routes.js";
import { mountSchemaRoutes } from "./schemas-routes.js";

export interface RestOptions {
  /** Version shown in the OpenAPI document. */
  version?: string;
  /** Log one line per request (method, path, status, time) to stdout. Never bodies or tokens. */
  accessLog?: boolean;
  /**
   * Other web-standard handlers served by this app, by exact path (e.g. the MCP endpoint
   * at /mcp). They get the request id (to pass to core) and access log, do their own
   * auth, and keep their protocol's dependencies out of this package.
   */
  mounts?: Record<string, (req: Request, requestId: string) => Response | Promise<Response>>;
  /** CAIRN_TRUST_PROXY: the proxies whose X-Forwarded-For / X-Forwarded-Proto count; others' are removed. */
  trustProxy?: ProxyTrust | undefined;
}

export function createRestApp(cairn: Cairn, options: RestOptions = {}): OpenAPIHono<RestEnv> {
  const app = new OpenAPIHono<RestEnv>();
  const operationOfRoute = new Map(
    operationNames().map((name) => {
      const route = routeOf(name, OPERATIONS[name].mutates);
      return [`${route.method.toUpperCase()} ${route.path}`, name] as const;
    }),
  );
  app.use("*", forwardedHeaders(options.trustProxy));
  app.use("*", recordRequests(operationOfRoute));
  app.use("*", requestIds(cairn, options.accessLog ?? false, operationOfRoute));
  // Operations core serves without a caller (the public signing keys) skip the token check.
  const publicPaths = new Set(
    operationNames()
      .filter((name) => OPERATIONS[name].runPublic)
      .map((name) => routeOf(name, OPERATIONS[name].mutates).path),
  );
  app.use("/v1/*", bearerAuth(cairn, publicPaths));
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "A Cairn token (cairn_…). `cairn serve` writes the admin's to $CAIRN_HOME/credentials.",
  });

  mountOperationRoutes(app, cairn);
  mountOtlpRoutes(app, cairn);
  mountSchemaRoutes(app);
  mountOAuthRoutes(app, cairn);
  mountFeedRoute(app, cairn);
  for (const [path, handle] of Object.entries(options.mounts ?? {})) {
    app.all(path, async (c) => {
      const res = await handle(c.req.raw, c.get("requestId"));
      res.headers.set("X-Request-Id", c.get("requestId"));
      return res;
    });
  }

  mountHealth(app, cairn);
  mountMetrics(app, cairn);
  mountBackup(app, cairn);

  // Generated once, on first request, when every route is registered; /docs renders the same document.
  let document: Record<string, unknown> | undefined;
  const openApi = () => {
    document ??= openApiDocument(app, cairn, options.version ?? "0.0.0");
    return document;
  };
  app.get("/openapi.json", (c) => c.json(openApi()));
  app.get("/docs", securityHeaders({ csp: DOCS_CSP }), (c) => c.html(renderDocsPage(openApi())));

  app.notFound((c) => errorResponse(c, new CairnError("not_found", `No route for ${c.req.method} ${c.req.path}.`), cairn.log));
  app.onError((err, c) => errorResponse(c, err, cairn.log));
  return app;
}
