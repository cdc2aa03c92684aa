import { operationNames } from "@cairn/core";
import { describe, expect, it } from "vitest";
import { operationsWithoutScenario } from "../completeness.js";
import { SCENARIOS } from "../scenarios.js";

describe("the scenario table", () => {
  it("calls every operation in the registry at least once", () => {
    expect(operationsWithoutScenario(operationNames(), SCENARIOS)).toEqual([]);
  });

  it("names the operations it does not call", () => {
    expect(operationsWithoutScenario([...operationNames(), "thing_do"], SCENARIOS)).toEqual(["thing_do"]);
  });

  it("has one row per name", () => {
    const names = SCENARIOS.map((s) => s.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });
});
