import { describe, expect, it } from "vitest";
import { pathPastDepth } from "../json.js";
import { LIMITS } from "../limits.js";
import { nestingError } from "../operations/nesting.js";

/** `levels` arrays inside each other, built without recursion. */
const arrays = (levels: number): unknown => JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`);

describe("the nesting bound", () => {
  it("counts the input itself as level 1 and names the first container past the limit", () => {
    expect(pathPastDepth(arrays(3), 3)).toBeUndefined();
    expect(pathPastDepth(arrays(4), 3)).toEqual([0, 0, 0]);
    expect(pathPastDepth({ ok: [1, { x: 1 }], deep: { a: { b: {} } } }, 3)).toEqual(["deep", "a", "b"]);
    expect(pathPastDepth("text", 1)).toBeUndefined();
  });

  it("walks 500,000 levels without recursing, and the refusal says the field, the reason and the limit", () => {
    const error = nestingError({ details: arrays(500_000) });
    expect(error?.code).toBe("validation_failed");
    expect(error?.issues).toEqual([
      {
        field: ["details", ...Array(LIMITS.depth - 1).fill("0")].join("."),
        reason: `is nested deeper than ${LIMITS.depth} levels of arrays and objects`,
        limit: LIMITS.depth,
      },
    ]);
    expect(nestingError({ details: arrays(LIMITS.depth - 1) })).toBeUndefined();
  });
});
