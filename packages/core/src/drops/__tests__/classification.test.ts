import { describe, expect, it } from "vitest";
import { SURFACES } from "../../context.js";
import { classifyDrop, DROP_CATEGORIES } from "../classification.js";

/** Words that only make sense to one kind of reader. */
const FOREIGN: Record<(typeof SURFACES)[number], RegExp> = {
  rest: /\btool\b|`cairn |receipt_create|policy_set|drops_list/,
  mcp: /\b(GET|POST|PUT|DELETE) \/|`cairn /,
  cli: /\b(POST|PUT|DELETE) \/|\btool\b|receipt_create|policy_set/,
  web: /\b(GET|POST|PUT|DELETE) \/|\btool\b|receipt_create/,
};

describe("drop classification next actions", () => {
  it.each(SURFACES)("are phrased for a %s reader and never in another surface's words", (surface) => {
    for (const category of DROP_CATEGORIES) {
      const { next_action } = classifyDrop(category, surface);
      expect(next_action.length, category).toBeGreaterThan(10);
      expect(next_action, `${category} on ${surface}`).not.toMatch(FOREIGN[surface]);
    }
  });

  it("keep what to do the same on every surface and change only how", () => {
    for (const category of DROP_CATEGORIES) {
      const [first, ...rest] = SURFACES.map((s) => classifyDrop(category, s));
      for (const other of rest) expect({ ...other, next_action: "" }).toEqual({ ...first, next_action: "" });
    }
    expect(classifyDrop("invalid", "mcp").next_action).toBe(
      "Fix the listed fields and call receipt_create again; receipt_create's input schema describes every field.",
    );
    expect(classifyDrop("invalid", "rest").next_action).toContain("GET /v1/schemas/cairn.receipt/v1");
    expect(classifyDrop("policy-vetoed", "cli").next_action).toContain("`cairn policy set`");
  });
});
