import type { CairnOptions, Store } from "@cairn/core";
import { createTestWorld, type Driver, openTestStore, type TestWorld } from "@cairn/core/testing";
import { createRestApp } from "../app.js";

export interface RestHarness {
  store: Store;
  world: TestWorld;
  app: ReturnType<typeof createRestApp>;
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; json: any; text: string; headers: Headers }>;
  close(): Promise<void>;
}

export async function openRestHarness(driver: Driver, options?: CairnOptions): Promise<RestHarness> {
  const store = await openTestStore(driver);
  const world = await createTestWorld(store, options);
  const app = createRestApp(world.cairn);
  return {
    store,
    world,
    app,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined;
      if (opts.rawBody !== undefined) body = opts.rawBody;
      else if (opts.body !== undefined) body = JSON.stringify(opts.body);
      if (body !== undefined) headers["content-type"] ??= "application/json";
      const res = await app.request(path, { method, headers, ...(body !== undefined && { body }) });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, json, text, headers: res.headers };
    },
    close: () => store.close(),
  };
}
