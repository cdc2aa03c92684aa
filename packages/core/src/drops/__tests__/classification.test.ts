import { describe, expect, it } from "vitest";
import { SURFACES } from "../../context.js";
import { classifyDrop, DROP_CATEGORIES } from "../classification.js";

const URL = "http://cairn.example:7373";

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
      const { next_action } = classifyDrop(category, surface, null, URL);
      expect(next_action.length, category).toBeGreaterThan(10);
      expect(next_action, `${category} on ${surface}`).not.toMatch(FOREIGN[surface]);
    }
  });

  it("keep what to do the same on every surface and change only how", () => {
    for (const category of DROP_CATEGORIES) {
      const [first, ...rest] = SURFACES.map((s) => classifyDrop(category, s, null, URL));
      for (const other of rest) expect({ ...other, next_action: "" }).toEqual({ ...first, next_action: "" });
    }
    expect(classifyDrop("invalid", "mcp", null, URL).next_action).toBe(
      "Fix the listed fields and call receipt_create again; receipt_create's input schema describes every field.",
    );
    expect(classifyDrop("invalid", "rest", null, URL).next_action).toContain("GET /v1/schemas/cairn.receipt/v1");
    expect(classifyDrop("policy-vetoed", "cli", null, URL).next_action).toContain("`cairn policy set`");
  });

  it("name the server's own URL where they send a person to a page, never a placeholder", () => {
    for (const surface of SURFACES) {
      for (const category of DROP_CATEGORIES) expect(classifyDrop(category, surface, "malformed", URL).next_action).not.toContain("$CAIRN_URL");
    }
    expect(classifyDrop("invalid", "cli", "missing", URL).next_action).toContain("http://cairn.example:7373/v1/schemas/cairn.receipt/v1 documents every field");
    expect(classifyDrop("invalid", "web", "missing", `${URL}/`).next_action).toContain("http://cairn.example:7373/v1/schemas/cairn.receipt/v1 documents");
  });

  it("answer input that is not JSON with where to fix it, and nothing about dates", () => {
    for (const surface of SURFACES) {
      const { cause, next_action } = classifyDrop("invalid", surface, "unreadable", URL);
      expect(cause).toBe("The submission could not be read: it is not valid JSON.");
      expect(next_action).toMatch(/^Fix the syntax at the line and column the error names and /);
      expect(`${cause} ${next_action}`).not.toMatch(/date|2026/);
    }
  });
});
