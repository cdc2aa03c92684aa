import { type Cairn, CairnError, type OperationName, type ServiceContext } from "@cairn/core";
import type { Context } from "hono";
import type { RestEnv } from "./adapter.js";
import { readJsonBody } from "./body.js";
import type { RouteSpec } from "./routes.js";

/** `Idempotency-Key`: core decides what it means (receipt_create replays); REST only carries it. */
export function requestContext(cairn: Cairn, c: Context<RestEnv>): ServiceContext {
  const idempotencyKey = c.req.header("idempotency-key");
  return cairn.context(c.get("principal"), "rest", idempotencyKey === undefined ? {} : { idempotencyKey });
}

/** Query parameters merged into a JSON object body; a body that is not an object is left for core to refuse. */
function withQuery(body: unknown, query: Record<string, string>): unknown {
  if (Object.keys(query).length === 0) return body ?? {};
  if (body === undefined) return query;
  return typeof body === "object" && body !== null && !Array.isArray(body) ? { ...body, ...query } : body;
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
    case "none":
      return {};
    case "body":
    case "body+query": {
      let body: unknown;
      try {
        body = await readJsonBody(c);
      } catch (err) {
        if (!(err instanceof CairnError)) throw err;
        throw await cairn.refuseUnreadable(name, requestContext(cairn, c), err);
      }
      return route.input === "body" ? body : withQuery(body, c.req.query());
    }
  }
}
