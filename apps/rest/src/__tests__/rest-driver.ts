import { type Artifact, readArtifactByShareToken } from "@cairn/core";
import type { LinkDriver, Outcome } from "@cairn/core/testing";
import { pathParams, ROUTES } from "../routes.js";
import type { RestHarness } from "./harness.js";

/**
 * Calls a core operation the way an HTTP client would: method, path and body come from
 * ROUTES, so a scenario written against operation names runs unchanged over REST.
 */
export async function callOperation(h: RestHarness, token: string, operation: string, input: Record<string, unknown>) {
  const route = ROUTES[operation as keyof typeof ROUTES];
  if (!route) throw new Error(`no route for ${operation}`);
  const inPath = new Set(pathParams(route.path));
  const path = route.path.replace(/:([a-z_]+)/g, (_, p: string) => encodeURIComponent(String(input[p])));
  const rest = Object.fromEntries(Object.entries(input).filter(([k]) => !inPath.has(k)));
  const query = route.input === "query" || route.input === "params+query" ? `?${new URLSearchParams(rest as Record<string, string>)}` : "";
  const body = route.input === "body" || route.input === "params+body" ? rest : undefined;
  return h.call(route.method.toUpperCase(), `${path}${query}`, { token, ...(body && { body }) });
}

export function restLinkDriver(h: RestHarness): LinkDriver {
  return {
    async invoke(as, operation, input): Promise<Outcome> {
      const res = await callOperation(h, as.token, operation, input);
      return res.status < 300 ? { ok: true, value: res.json } : { ok: false, error: res.json.error };
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
