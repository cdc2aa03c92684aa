import type { OperationName } from "@cairn/core";

export interface RouteSpec {
  method: "get" | "post" | "put" | "delete";
  /** hono path syntax (`:id`); OpenAPI paths are derived from it. */
  path: string;
  status: 200 | 201;
  /** Where the operation's input comes from; `body+query` merges query parameters (e.g. `?owner=`) into the body. */
  input: "body" | "query" | "params" | "none" | "body+query";
  tag: string;
}

/**
 * Where each core operation lives over HTTP. Typed as a total record, so an operation
 * added to core does not compile until it has a route here.
 */
export const ROUTES: { readonly [N in OperationName]: RouteSpec } = {
  receipt_create: { method: "post", path: "/v1/receipts", status: 201, input: "body", tag: "Receipts" },
  artifact_create: { method: "post", path: "/v1/artifacts", status: 201, input: "body", tag: "Artifacts" },
  artifact_read: { method: "get", path: "/v1/artifacts/:id", status: 200, input: "params", tag: "Artifacts" },
  artifact_search: { method: "get", path: "/v1/artifacts", status: 200, input: "query", tag: "Artifacts" },
  me: { method: "get", path: "/v1/me", status: 200, input: "none", tag: "Identity" },
  user_create: { method: "post", path: "/v1/users", status: 201, input: "body", tag: "Identity" },
  token_create: { method: "post", path: "/v1/tokens", status: 201, input: "body", tag: "Identity" },
  drops_list: { method: "get", path: "/v1/drops", status: 200, input: "query", tag: "Drops" },
  doctor: { method: "get", path: "/v1/doctor", status: 200, input: "none", tag: "Drops" },
  status: { method: "get", path: "/v1/status", status: 200, input: "none", tag: "Drops" },
  policy_get: { method: "get", path: "/v1/policy", status: 200, input: "query", tag: "Policy" },
  policy_set: { method: "put", path: "/v1/policy", status: 200, input: "body+query", tag: "Policy" },
};

export const openApiPath = (path: string) => path.replace(/:([a-z_]+)/g, "{$1}");
