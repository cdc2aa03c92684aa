import { OPERATIONS } from "@cairn/core";
import { requestOf, routeOf } from "@cairn/rest";
import type { Driver, Outcome } from "../types.js";
import { ndjsonPage } from "./ndjson.js";

/** Real HTTP against the running server, each operation where the REST route table puts it. */
export function restDriver(baseUrl: string): Driver {
  return {
    name: "rest",
    surface: "rest",
    async call(actor, operation, input): Promise<Outcome | null> {
      const route = routeOf(operation, OPERATIONS[operation].mutates);
      const request = requestOf(route, input);
      if (!request) return null;
      const res = await fetch(`${baseUrl}${request.url}`, {
        method: request.method,
        headers: { authorization: `Bearer ${actor.token}`, ...(request.body !== undefined && { "content-type": "application/json" }) },
        ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      });
      const text = await res.text();
      if (res.status >= 500) throw new Error(`REST ${res.status}: ${text.slice(0, 300)}`);
      // A streamed route answers every page as lines; the reference answers the one page there is.
      if (res.ok && route.response === "ndjson") return { ok: true, value: ndjsonPage(text) };
      const json = JSON.parse(text) as { error?: never };
      return res.ok ? { ok: true, value: json } : { ok: false, error: json.error as never };
    },
  };
}
