import type { Actor, Driver, Outcome } from "../types.js";

async function call(url: string, actor: Actor, init: RequestInit = {}): Promise<Outcome> {
  const res = await fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${actor.token}`, "content-type": "application/json", ...init.headers },
  });
  const json = (await res.json()) as { error?: Outcome extends { error: infer E } ? E : never };
  if (res.status >= 500) throw new Error(`REST ${res.status}: ${JSON.stringify(json)}`);
  return res.ok ? { ok: true, value: json } : { ok: false, error: json.error as never };
}

/** Real HTTP against the running server. */
export function restDriver(baseUrl: string): Driver {
  return {
    name: "rest",
    surface: "rest",
    createReceipt: (actor, input) => call(`${baseUrl}/v1/receipts`, actor, { method: "POST", body: JSON.stringify(input) }),
    read: (actor, id) => call(`${baseUrl}/v1/artifacts/${encodeURIComponent(id)}`, actor),
    search: (actor, query) => {
      const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
      return call(`${baseUrl}/v1/artifacts?${params}`, actor);
    },
  };
}
