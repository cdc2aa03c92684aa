import { type Artifact, OPERATIONS, type OperationName, readArtifactByShareToken } from "@cairn/core";
import type { LinkDriver, Outcome } from "@cairn/core/testing";
import { requestOf, routeOf } from "../routes.js";
import type { RestHarness } from "./harness.js";

/**
 * Calls a core operation the way an HTTP client would: method, path and body come from
 * the route table, so a scenario written against operation names runs unchanged over REST.
 */
async function callOperation(h: RestHarness, token: string, operation: string, input: Record<string, unknown>) {
  const name = operation as OperationName;
  const request = requestOf(routeOf(name, OPERATIONS[name].mutates), input);
  if (!request) throw new Error(`${operation} takes named fields`);
  return h.call(request.method, request.url, { token, ...(request.body !== undefined && { body: request.body }) });
}

export function restLinkDriver(h: RestHarness): LinkDriver {
  return {
    async invoke(as, operation, input): Promise<Outcome> {
      const res = await callOperation(h, as.token, operation, input);
      if (res.status < 300) return { ok: true, value: res.json };
      // Each answer names its own request (request_id); the rule compares what it says.
      const { request_id: _ownRequest, ...error } = res.json.error;
      return { ok: false, error };
    },
    // REST has no anonymous share-link route (the web serves /s/:token); its reader is core's.
    async readByLink(url): Promise<Outcome<Artifact>> {
      try {
        return { ok: true, value: await readArtifactByShareToken(h.store, h.world.cairn.config, url.split("/s/")[1] ?? "") };
      } catch (err) {
        return { ok: false, error: (err as { toBody(): any }).toBody() };
      }
    },
  };
}
