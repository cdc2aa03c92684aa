import { describe, expect, it } from "vitest";
import { provenanceHeader, provenanceLine } from "../provenance-line.js";
import type { Provenance } from "../schemas.js";

const p = (over: Partial<Provenance> = {}): Provenance => ({
  actor: { id: "tok_1", name: "claude", kind: "agent" },
  on_behalf_of: "sam",
  model: "opus-5",
  surface: "mcp",
  ...over,
});

describe("provenanceLine (card header)", () => {
  it.each([
    ["the SPEC example", p(), "Receipt asserted by claude · opus-5 for sam, via MCP"],
    ["REST", p({ surface: "rest" }), "Receipt asserted by claude · opus-5 for sam, via REST"],
    ["CLI", p({ surface: "cli" }), "Receipt asserted by claude · opus-5 for sam, via CLI"],
    ["the web", p({ surface: "web" }), "Receipt asserted by claude · opus-5 for sam, via the web"],
    ["no model", p({ model: null }), "Receipt asserted by claude for sam, via MCP"],
    ["an empty model", p({ model: "" }), "Receipt asserted by claude for sam, via MCP"],
    ["a human token", p({ actor: { id: "tok_2", name: "laptop", kind: "human" }, model: null, surface: "cli" }), "Receipt asserted by laptop for sam, via CLI"],
  ])("%s", (_case, provenance, expected) => {
    expect(provenanceLine(provenance)).toBe(expected);
  });

  it("names another subject for a plain artifact", () => {
    expect(provenanceLine(p({ model: null, surface: "rest" }), "Artifact")).toBe("Artifact asserted by claude for sam, via REST");
  });

  it("never claims verification", () => {
    for (const surface of ["rest", "mcp", "cli", "web"] as const) {
      expect(provenanceLine(p({ surface })).toLowerCase()).not.toMatch(/verif/);
    }
  });

  it("exposes the parts the card styles separately, including the actor kind", () => {
    expect(provenanceHeader(p({ model: null }))).toEqual({
      text: "Receipt asserted by claude for sam, via MCP",
      actor: "claude",
      actor_kind: "agent",
      model: null,
      on_behalf_of: "sam",
      surface: "MCP",
    });
  });
});
