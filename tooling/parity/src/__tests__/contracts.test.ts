import { describe, expect, it } from "vitest";
import { outcomeOfCliRun } from "../drivers/cli.js";
import { outcomeOfToolResult } from "../drivers/mcp.js";
import { type ExpectedFailure, unexpectedProblems } from "../expected-failures.js";
import { diff } from "../normalize.js";

const error = { code: "validation_failed", message: "learned: is required", issues: [{ field: "learned", reason: "is required" }] };
const text = (t: string) => [{ type: "text" as const, text: t }];

describe("the MCP driver holds results to the MCP surface's contract", () => {
  it("maps structuredContent and a tool error's REST envelope to outcomes", () => {
    const value = { id: "art_1", title: "T" };
    expect(outcomeOfToolResult({ content: text(JSON.stringify(value)), structuredContent: value })).toEqual({ ok: true, value });
    const meta = { "cairn.dev/error": error };
    expect(outcomeOfToolResult({ content: text(JSON.stringify({ error })), isError: true, _meta: meta })).toEqual({ ok: false, error });
    const link = { type: "resource_link" as const, uri: "mcp://cairn/artifacts/art_1", name: "art_1" };
    expect(outcomeOfToolResult({ content: [...text(JSON.stringify(value)), link], structuredContent: value })).toEqual({ ok: true, value });
  });

  it("refuses an error whose _meta does not mirror it, and a link to anything but the stored artifact", () => {
    expect(() => outcomeOfToolResult({ content: text(JSON.stringify({ error })), isError: true })).toThrow(/_meta does not mirror/);
    const value = { id: "art_1" };
    const elsewhere = { type: "resource_link" as const, uri: "mcp://cairn/artifacts/art_2", name: "art_2" };
    expect(() => outcomeOfToolResult({ content: [...text(JSON.stringify(value)), elsewhere], structuredContent: value })).toThrow(/not the artifact art_1/);
  });

  it("refuses a text block that is not the JSON of structuredContent, or an error that is not the envelope", () => {
    expect(() => outcomeOfToolResult({ content: text('{"id":"art_2"}'), structuredContent: { id: "art_1" } })).toThrow(/not the JSON of structuredContent/);
    expect(() => outcomeOfToolResult({ content: text(JSON.stringify(error)), isError: true })).toThrow(/not the REST error envelope/);
    expect(() => outcomeOfToolResult({ content: text(JSON.stringify({ error })), isError: true, structuredContent: { error } })).toThrow(
      /carries structuredContent/,
    );
    expect(() => outcomeOfToolResult({ content: text("{}") })).toThrow(/no structuredContent/);
  });
});

describe("the CLI driver holds runs to the CLI's contract", () => {
  it("maps --json stdout to outcomes when the exit code is the documented one", () => {
    expect(outcomeOfCliRun("receipt", { code: 1, stdout: JSON.stringify({ error }), stderr: "" })).toEqual({ ok: false, error });
    expect(outcomeOfCliRun("read", { code: 0, stdout: '{"id":"art_1"}\n', stderr: "" })).toEqual({ ok: true, value: { id: "art_1" } });
  });

  it("refuses an exit code that disagrees with the answer, and stdout that is not JSON", () => {
    expect(() => outcomeOfCliRun("receipt", { code: 0, stdout: JSON.stringify({ error }), stderr: "" })).toThrow(
      "`cairn receipt` exited 0 for error code validation_failed; the documented exit code is 1",
    );
    expect(() => outcomeOfCliRun("read", { code: 7, stdout: "", stderr: "boom" })).toThrow(/printed no JSON on stdout; stderr: boom/);
  });
});

describe("expected failures", () => {
  const list: ExpectedFailure[] = [{ scenario: "s", surface: "web", reason: "known gap" }];
  it("silence a listed surface while it still fails, and report everything else", () => {
    const results = [
      { surface: "web", result: null, problems: ["web differs"] },
      { surface: "cli", result: null, problems: ["cli differs"] },
    ];
    expect(unexpectedProblems("s", results, list)).toEqual(["cli differs"]);
  });

  it("fail once a listed surface agrees, so the entry is removed", () => {
    expect(unexpectedProblems("s", [{ surface: "web", result: {}, problems: [] }], list)).toEqual([
      'scenario "s" now agrees on surface web: remove it from EXPECTED_FAILURES',
    ]);
  });
});

describe("the failure diff", () => {
  it("shows only the lines that differ, aligned past inserted ones", () => {
    const expected = { error: { code: "validation_failed", issues: [{ field: "(input)" }], drop: { category: "invalid" } } };
    const actual = { error: { code: "validation_failed", issues: [{ field: "changed" }, { field: "affected" }], drop: { category: "invalid" } } };
    expect(diff(expected, actual).split("\n")).toEqual([
      '-         "field": "(input)"',
      '+         "field": "changed"',
      "+       },",
      "+       {",
      '+         "field": "affected"',
    ]);
  });
});
