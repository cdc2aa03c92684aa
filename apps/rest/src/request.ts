import { type Cairn, CairnError, OPERATION_HEADERS, OPERATIONS, type OperationName, type RequestOptions, type ServiceContext } from "@cairn/core";
import { isPlainObject } from "@cairn/core/json";
import type { Context } from "hono";
import type { RestEnv } from "./adapter.js";
import { readJsonBody } from "./body.js";
import { mergeParamsIntoBody } from "./params-body.js";
import type { RouteSpec } from "./routes.js";
import { surfaceOf } from "./surface.js";

/**
 * The service context of a request: the surface the client may claim (`X-Cairn-Surface`),
 * the request id, and the headers the operation declares it reads (their meaning is core's).
 */
export function requestContext(cairn: Cairn, c: Context<RestEnv>, name: OperationName): ServiceContext {
  // The client's going away ends a held request (decision_wait) at once.
  const options: RequestOptions = { requestId: c.get("requestId"), signal: c.req.raw.signal };
  for (const header of OPERATIONS[name].headers) {
    const value = c.req.header(header);
    if (value !== undefined) options[OPERATION_HEADERS[header].option] = value;
  }
  return cairn.context(c.get("principal"), surfaceOf(c.req.header("x-cairn-surface")), options);
}

/** Query parameters merged into a JSON object body; a body that is not an object is left for core to refuse. */
function withQuery(body: unknown, query: Record<string, string>): unknown {
  if (Object.keys(query).length === 0) return body ?? {};
  if (body === undefined) return query;
  return isPlainObject(body) ? { ...body, ...query } : body;
}

/**
 * The operation's raw input from where its route says it lives. A body that cannot be
 * read is still a submission: core is told, so receipt_create leaves a drop receipt.
 */
export async function readInput(cairn: Cairn, c: Context<RestEnv>, name: OperationName, route: RouteSpec): Promise<unknown> {
  switch (route.input) {
    case "query":
      return c.req.query();
    case "params":
      return c.req.param();
    case "params+query":
      return { ...c.req.query(), ...c.req.param() };
    case "none":
      return {};
    case "body":
    case "body+query":
    case "params+body": {
      let body: unknown;
      try {
        body = await readJsonBody(c);
      } catch (err) {
        if (!(err instanceof CairnError)) throw err;
        throw await cairn.refuseUnreadable(name, requestContext(cairn, c, name), err);
      }
      if (route.input === "params+body") return mergeParamsIntoBody(c.req.param(), body);
      return route.input === "body" ? body : withQuery(body, c.req.query());
    }
  }
}
