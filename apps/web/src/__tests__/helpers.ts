import type { Store } from "@cairn/core";
import { createTestWorld, openTestStore, type TestUser, type TestWorld } from "@cairn/core/testing";
import { afterAll, beforeAll } from "vitest";
import { createWebApp } from "../app.js";

/** Web tests check the adapter, not storage: one store (PGlite) is enough. */
export function useWeb(now?: () => Date) {
  const t = {} as { store: Store; world: TestWorld; app: ReturnType<typeof createWebApp> };
  beforeAll(async () => {
    t.store = await openTestStore("pglite");
    t.world = await createTestWorld(t.store, now);
    t.app = createWebApp(t.world.cairn);
  });
  afterAll(async () => t.store?.close());
  return t;
}

export interface Browserish {
  cookies: Map<string, string>;
  request(path: string, init?: RequestInit & { form?: Record<string, string> }): Promise<Response>;
}

/** A cookie jar over app.request: enough to walk the sign-in flow without a browser. */
export function jar(app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> }): Browserish {
  const cookies = new Map<string, string>();
  return {
    cookies,
    async request(path, init = {}) {
      const headers = new Headers(init.headers);
      if (cookies.size > 0) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
      let body = init.body;
      if (init.form) {
        headers.set("content-type", "application/x-www-form-urlencoded");
        body = new URLSearchParams(init.form).toString();
      }
      const res = await app.request(path, { ...init, headers, ...(body !== undefined && { body }) });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const [name, ...value] = (pair ?? "").split("=");
        if (!name) continue;
        if (/max-age=0/i.test(line) || value.join("=") === "") cookies.delete(name.trim());
        else cookies.set(name.trim(), value.join("="));
      }
      return res;
    },
  };
}

export const formTokenIn = (html: string) => html.match(/name="csrf" value="([^"]+)"/)?.[1] ?? "";

/** Signs the user in through the real form and returns the jar holding the session. */
export async function signIn(app: Parameters<typeof jar>[0], user: Pick<TestUser, "token">): Promise<Browserish> {
  const b = jar(app);
  const form = await (await b.request("/signin")).text();
  const res = await b.request("/signin", { method: "POST", form: { token: user.token, csrf: formTokenIn(form), next: "/" } });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return b;
}
