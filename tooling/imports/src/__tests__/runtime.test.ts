import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { type ImportGraph, importGraph } from "../graph.js";

const REPO = resolve(import.meta.dirname, "../../../..");
const CORE = "packages/core/src/";
const RUNTIME = `${CORE}runtime/`;
/** What composes the areas: the runtime itself, the core that starts it, and the package's face. */
const COMPOSERS = [RUNTIME, `${CORE}cairn.ts`, `${CORE}index.ts`];
/** Tests and fixtures drive a whole core; they are no area. */
const NOT_AREAS = /\/(?:__tests__|testing)\//;

/** Every import from an area of core (or a primitive beside them) into `runtime/`. */
function reachesIntoRuntime(graph: ImportGraph): string[] {
  return [...graph].flatMap(([from, targets]) =>
    COMPOSERS.some((c) => from.startsWith(c)) || NOT_AREAS.test(from) ? [] : targets.filter((t) => t.startsWith(RUNTIME)).map((t) => `${from} -> ${t}`),
  );
}

describe("composition at the top", () => {
  it("no area of core imports runtime/ (the registry, the job list, the workers)", () => {
    const graph = importGraph([join(REPO, CORE)], REPO);
    expect([...graph.keys()].filter((f) => f.startsWith(RUNTIME)).length).toBeGreaterThan(3);
    expect(reachesIntoRuntime(graph)).toEqual([]);
  });

  it("the check names an area that reaches up, and lets the composers and tests through", () => {
    const planted: ImportGraph = new Map([
      [`${CORE}receipt/create.ts`, [`${RUNTIME}registry.ts`, `${CORE}errors.ts`]],
      [`${CORE}errors.ts`, [`${RUNTIME}job-list.ts`]],
      [`${CORE}cairn.ts`, [`${RUNTIME}worker.ts`]],
      [`${RUNTIME}worker.ts`, [`${RUNTIME}claim-loop.ts`, `${CORE}events/deliver.ts`]],
      [`${CORE}receipt/__tests__/create.test.ts`, [`${RUNTIME}registry.ts`]],
    ]);
    expect(reachesIntoRuntime(planted)).toEqual([`${CORE}receipt/create.ts -> ${RUNTIME}registry.ts`, `${CORE}errors.ts -> ${RUNTIME}job-list.ts`]);
  });
});
