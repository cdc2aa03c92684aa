import { afterAll, beforeAll } from "vitest";
import { CairnError } from "../errors.js";
import type { Store } from "../store/port.js";
import { createTestWorld, type Driver, openTestStore, type TestWorld } from "../testing/index.js";

export async function rejectionOf(p: Promise<unknown>): Promise<CairnError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof CairnError) return err;
    throw err;
  }
  throw new Error("expected a rejection");
}

/** Everything written to the console while fn runs, as one string (and nothing printed). */
export async function captureConsole<T>(fn: () => Promise<T>): Promise<{ result: T; output: string }> {
  const lines: string[] = [];
  const methods = ["log", "error", "warn", "info", "debug"] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) console[m] = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  try {
    return { result: await fn(), output: lines.join("\n") };
  } finally {
    methods.forEach((m, i) => {
      console[m] = saved[i] as (typeof console)[typeof m];
    });
  }
}

/**
 * A throwaway store and test world for the enclosing describe block: opened before its
 * tests, closed (and dropped) after. Read `fx.store` / `fx.world` inside the tests.
 */
export function useTestWorld(driver: Driver, options?: Parameters<typeof createTestWorld>[1]): { store: Store; world: TestWorld } {
  const t = {} as { store: Store; world: TestWorld };
  beforeAll(async () => {
    t.store = await openTestStore(driver);
    t.world = await createTestWorld(t.store, options);
  });
  afterAll(async () => t.store?.close());
  return t;
}
