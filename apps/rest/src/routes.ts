import type { ApiTagName, OperationName, PagedOperationName } from "@cairn/core";
import { isPlainObject } from "@cairn/core/json";

export interface RouteSpec {
  method: "get" | "post" | "put" | "delete";
  /** hono path syntax (`:id`); OpenAPI paths are derived from it. */
  path: string;
  status: 200 | 201;
  /**
   * Where the operation's input comes from. `params+body` merges the path parameters
   * into the JSON body object (e.g. `run_id` from the path, `spans` from the body);
   * `body+query` merges query parameters (e.g. `?owner=`) into the body; `params+query`
   * merges the path parameters into the query (e.g. `id` from the path, `?cursor=`).
   */
  input: "body" | "query" | "params" | "params+body" | "body+query" | "params+query" | "none";
  /** The route's group in the documentation: one core declares (API_TAGS), so it has a description. */
  tag: ApiTagName;
  /**
   * How the answer is sent: one JSON document (the default), or `ndjson`: every page of a
   * paged operation streamed as one JSON object per line, so an export never has to fit
   * in memory or in one response body.
   */
  response?: "json" | "ndjson";
}

/** Only paged operations (`{items, next_cursor}` answers) may stream. */
type RouteOf<N extends OperationName> = N extends PagedOperationName ? RouteSpec : RouteSpec & { response?: "json" };

/**
 * Where core operations live over HTTP, when the default does not read well. An
 * operation without an entry still gets a route (`defaultRoute`), so a new operation
 * reaches REST without an edit here.
 */
export const ROUTES: { readonly [N in OperationName]?: RouteOf<N> } = {
  receipt_create: { method: "post", path: "/v1/receipts", status: 201, input: "body", tag: "Receipts" },
  artifact_create: { method: "post", path: "/v1/artifacts", status: 201, input: "body", tag: "Artifacts" },
  artifact_a2ui: { method: "get", path: "/v1/artifacts/:id/a2ui", status: 200, input: "params", tag: "Artifacts" },
  artifact_read: { method: "get", path: "/v1/artifacts/:id", status: 200, input: "params", tag: "Artifacts" },
  artifact_search: { method: "get", path: "/v1/artifacts", status: 200, input: "query", tag: "Artifacts" },
  artifact_export: { method: "get", path: "/v1/export", status: 200, input: "query", tag: "Artifacts", response: "ndjson" },
  artifact_retain: { method: "post", path: "/v1/artifacts/:id/retain", status: 200, input: "params", tag: "Artifacts" },
  artifact_assign: { method: "post", path: "/v1/artifacts/:id/assign", status: 200, input: "params+body", tag: "Artifacts" },
  artifact_transfer: { method: "post", path: "/v1/artifacts/:id/transfer", status: 200, input: "params+body", tag: "Artifacts" },
  comment_create: { method: "post", path: "/v1/artifacts/:id/comments", status: 201, input: "params+body", tag: "Artifacts" },
  comment_list: { method: "get", path: "/v1/artifacts/:id/comments", status: 200, input: "params+query", tag: "Artifacts" },
  comment_delete: { method: "delete", path: "/v1/artifacts/:id/comments/:cid", status: 200, input: "params", tag: "Artifacts" },
  me: { method: "get", path: "/v1/me", status: 200, input: "none", tag: "Identity" },
  user_create: { method: "post", path: "/v1/users", status: 201, input: "body", tag: "Identity" },
  token_create: { method: "post", path: "/v1/tokens", status: 201, input: "body", tag: "Identity" },
  token_list: { method: "get", path: "/v1/tokens", status: 200, input: "query", tag: "Identity" },
  token_revoke: { method: "delete", path: "/v1/tokens/:id", status: 200, input: "params", tag: "Identity" },
  team_create: { method: "post", path: "/v1/teams", status: 201, input: "body", tag: "Teams" },
  team_read: { method: "get", path: "/v1/teams/:name", status: 200, input: "params", tag: "Teams" },
  team_member_add: { method: "post", path: "/v1/teams/:name/members", status: 200, input: "params+body", tag: "Teams" },
  team_member_remove: { method: "delete", path: "/v1/teams/:name/members/:user", status: 200, input: "params", tag: "Teams" },
  team_invitation_list: { method: "get", path: "/v1/invitations", status: 200, input: "query", tag: "Teams" },
  team_invitation_accept: { method: "post", path: "/v1/invitations/:name/accept", status: 200, input: "params", tag: "Teams" },
  team_invitation_decline: { method: "post", path: "/v1/invitations/:name/decline", status: 200, input: "params", tag: "Teams" },
  team_leave: { method: "post", path: "/v1/teams/:name/leave", status: 200, input: "params+body", tag: "Teams" },
  team_block: { method: "put", path: "/v1/teams/:name/block", status: 200, input: "params", tag: "Teams" },
  team_unblock: { method: "delete", path: "/v1/teams/:name/block", status: 200, input: "params", tag: "Teams" },
  run_create: { method: "post", path: "/v1/runs", status: 201, input: "body", tag: "Runs" },
  run_read: { method: "get", path: "/v1/runs/:run_id", status: 200, input: "params+query", tag: "Runs" },
  run_list: { method: "get", path: "/v1/runs", status: 200, input: "query", tag: "Runs" },
  run_append_spans: { method: "post", path: "/v1/runs/:run_id/spans", status: 200, input: "params+body", tag: "Runs" },
  run_close: { method: "post", path: "/v1/runs/:run_id/close", status: 200, input: "params", tag: "Runs" },
  run_delete: { method: "delete", path: "/v1/runs/:run_id", status: 200, input: "params", tag: "Runs" },
  drops_list: { method: "get", path: "/v1/drops", status: 200, input: "query", tag: "Drops" },
  drops_dismiss: { method: "post", path: "/v1/drops/dismiss", status: 200, input: "body", tag: "Drops" },
  doctor: { method: "get", path: "/v1/doctor", status: 200, input: "none", tag: "Drops" },
  status: { method: "get", path: "/v1/status", status: 200, input: "none", tag: "Drops" },
  policy_get: { method: "get", path: "/v1/policy", status: 200, input: "query", tag: "Policy" },
  policy_set: { method: "put", path: "/v1/policy", status: 200, input: "body+query", tag: "Policy" },
  keys_list: { method: "get", path: "/v1/keys", status: 200, input: "none", tag: "Signing" },
  keys_rotate: { method: "post", path: "/v1/keys/rotate", status: 200, input: "none", tag: "Signing" },
  receipt_verify: { method: "post", path: "/v1/verify", status: 200, input: "body", tag: "Signing" },
  subscription_create: { method: "post", path: "/v1/subscriptions", status: 201, input: "body", tag: "Webhooks" },
  subscription_list: { method: "get", path: "/v1/subscriptions", status: 200, input: "query", tag: "Webhooks" },
  subscription_read: { method: "get", path: "/v1/subscriptions/:id", status: 200, input: "params", tag: "Webhooks" },
  subscription_delete: { method: "delete", path: "/v1/subscriptions/:id", status: 200, input: "params", tag: "Webhooks" },
  subscription_enable: { method: "post", path: "/v1/subscriptions/:id/enable", status: 200, input: "params", tag: "Webhooks" },
  subscription_deliveries: { method: "get", path: "/v1/subscriptions/:id/deliveries", status: 200, input: "params+query", tag: "Webhooks" },
  subscription_redeliver: { method: "post", path: "/v1/subscriptions/:id/redeliver", status: 200, input: "params+body", tag: "Webhooks" },
  subscription_recover: { method: "post", path: "/v1/subscriptions/:id/recover", status: 200, input: "params+body", tag: "Webhooks" },
  subscription_test: { method: "post", path: "/v1/subscriptions/:id/test", status: 200, input: "params", tag: "Webhooks" },
  subscription_rotate_secret: { method: "post", path: "/v1/subscriptions/:id/rotate-secret", status: 200, input: "params", tag: "Webhooks" },
  artifact_acknowledge: { method: "post", path: "/v1/artifacts/:id/acknowledge", status: 200, input: "params+body", tag: "Inbox" },
  artifact_decide: { method: "post", path: "/v1/artifacts/:id/decide", status: 200, input: "params+body", tag: "Decisions" },
  decision_wait: { method: "get", path: "/v1/artifacts/:id/decision", status: 200, input: "params+query", tag: "Decisions" },
  inbox_list: { method: "get", path: "/v1/inbox", status: 200, input: "query", tag: "Inbox" },
  outcomes_list: { method: "get", path: "/v1/outcomes", status: 200, input: "query", tag: "Inbox" },
  signin_link_create: { method: "post", path: "/v1/signin-links", status: 201, input: "body", tag: "Identity" },
  channel_create: { method: "post", path: "/v1/me/channels", status: 201, input: "body", tag: "Notifications" },
  channel_list: { method: "get", path: "/v1/me/channels", status: 200, input: "none", tag: "Notifications" },
  channel_delete: { method: "delete", path: "/v1/me/channels/:id", status: 200, input: "params", tag: "Notifications" },
  channel_test: { method: "post", path: "/v1/me/channels/:id/test", status: 200, input: "params", tag: "Notifications" },
  channel_deliveries: { method: "get", path: "/v1/me/channels/:id/deliveries", status: 200, input: "params", tag: "Notifications" },
  notifications_get: { method: "get", path: "/v1/me/notifications", status: 200, input: "none", tag: "Notifications" },
  notifications_set: { method: "put", path: "/v1/me/notifications", status: 200, input: "body", tag: "Notifications" },
  feed_key_rotate: { method: "post", path: "/v1/me/feed-key", status: 200, input: "none", tag: "Notifications" },
};

/**
 * The route of an operation ROUTES does not name: `POST /v1/<words>` with a JSON body for
 * a write, `GET /v1/<words>` with query parameters for a read (`thing_do` → `/v1/thing/do`).
 */
export function defaultRoute(name: string, mutates: boolean): RouteSpec {
  const path = `/v1/${name.split("_").join("/")}`;
  return mutates ? { method: "post", path, status: 200, input: "body", tag: "Other" } : { method: "get", path, status: 200, input: "query", tag: "Other" };
}

/** The route an operation is served on. */
export function routeOf(name: OperationName, mutates: boolean): RouteSpec {
  return ROUTES[name] ?? defaultRoute(name, mutates);
}

export interface OperationRequest {
  method: string;
  /** The path with its parameters filled in, plus the query string, if any. */
  url: string;
  /** The JSON body to send, if the route takes one. */
  body?: unknown;
}

/**
 * How a client sends an operation's input over this route: path parameters filled in,
 * the rest as query parameters or a JSON body. A body that is not an object is sent as
 * it is, so the server names what is wrong with it as for any client. Null when the
 * route takes named fields and the input is not an object.
 */
export function requestOf(route: RouteSpec, input: unknown): OperationRequest | null {
  const method = route.method.toUpperCase();
  if (!isPlainObject(input)) return route.input === "body" ? { method, url: route.path, body: input } : null;
  const fields = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const path = route.path.replace(/:([a-z_]+)/g, (_, key: string) => {
    const value = fields[key];
    delete fields[key];
    return encodeURIComponent(String(value ?? ""));
  });
  switch (route.input) {
    case "query":
    case "params+query": {
      const query = new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
      return { method, url: query ? `${path}?${query}` : path };
    }
    case "params":
    case "none":
      return { method, url: path };
    case "body+query":
    case "body":
    case "params+body":
      return { method, url: path, body: fields };
  }
}

/** Names of the path parameters of a route, e.g. `run_id` in /v1/runs/:run_id/spans. */
export const pathParams = (path: string): string[] => [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string);

export const openApiPath = (path: string) => path.replace(/:([a-z_]+)/g, "{$1}");
