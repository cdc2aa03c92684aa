import { describe, expect, it } from "vitest";
import { missingDayReason } from "../dates.js";
import { jsonErrorOffset, jsonSyntaxReason } from "../json.js";
import { ReceiptCreateInput } from "../receipt/schemas.js";
import { editDistance, knownFieldsAt, nearestField } from "../suggest.js";
import { minimalReceipt } from "../testing/index.js";
import { parseWith } from "../validation.js";

const reasonsOf = (raw: unknown) => {
  const parsed = parseWith(ReceiptCreateInput, raw);
  return parsed.ok ? {} : Object.fromEntries(parsed.issues.map((i) => [i.field, i.reason]));
};

describe("an unknown field suggests the nearest known one (SPEC §22)", () => {
  it("counts a swap of neighbours as one edit", () => {
    expect(editDistance("human_actoin", "human_action")).toBe(1);
    expect(editDistance("chnged", "changed")).toBe(1);
    expect(editDistance("evidance", "evidence")).toBe(1);
    expect(editDistance("abc", "xyz")).toBe(3);
  });

  it("suggests within two edits, at the top level and inside nested objects and lists", () => {
    const { human_action: _, ...rest } = minimalReceipt() as Record<string, unknown>;
    expect(reasonsOf({ ...rest, human_actoin: "Nothing" })).toMatchObject({ human_actoin: "is not a known field; did you mean human_action?" });
    const nested = { ...minimalReceipt(), outcome: { status: "pending", measure_at: "2026-12-01", sumary: "x" } };
    expect(reasonsOf(nested)).toMatchObject({ "outcome.sumary": "is not a known field; did you mean summary?" });
    expect(knownFieldsAt(ReceiptCreateInput, ["outcome"])).toEqual(expect.arrayContaining(["status", "summary", "measure_at"]));
  });

  it("says nothing more when no known field is close, or the name is too short to guess from", () => {
    expect(reasonsOf({ ...minimalReceipt(), colour: "blue" })).toMatchObject({ colour: "is not a known field" });
    expect(nearestField("to", ["id", "tags"])).toBeUndefined();
    expect(nearestField("Human_Action", ["human_action"])).toBe("human_action");
  });
});

describe("an impossible date says the day does not exist (SPEC §22)", () => {
  it("names the day, and only for a date-shaped value", () => {
    expect(missingDayReason("2026-02-30")).toBe("2026-02-30 is not a day in the calendar");
    expect(missingDayReason("2026-13-01T09:00:00Z")).toBe("2026-13-01 is not a day in the calendar");
    expect(missingDayReason("2028-02-29")).toBeUndefined();
    expect(missingDayReason("next tuesday")).toBeUndefined();
    const receipt = { ...minimalReceipt(), outcome: { status: "pending", measure_at: "2026-02-30" } };
    expect(reasonsOf(receipt)).toEqual({ "outcome.measure_at": "2026-02-30 is not a day in the calendar" });
    expect(reasonsOf({ ...receipt, outcome: { status: "pending", measure_at: "soon" } })).toEqual({
      "outcome.measure_at": "must be an ISO 8601 date (2026-12-01) or date-time with a zone (2026-12-01T09:00:00Z)",
    });
  });
});

describe("malformed JSON says where (SPEC §22)", () => {
  const reasonOf = (text: string) => {
    try {
      JSON.parse(text);
    } catch (err) {
      return jsonSyntaxReason(text, err);
    }
    return "parsed";
  };

  it("gives line and column for every kind of mistake, and quotes no input", () => {
    expect(reasonOf('{"changed": "a"\n  "learned": "b"}')).toBe("is not valid JSON: Expected ',' or '}' after property value at line 2, column 3");
    expect(reasonOf('{"a": }')).toBe("is not valid JSON: Unexpected token '}' at line 1, column 7");
    expect(reasonOf('{"a": 1')).toMatch(/at line 1, column 8$/);
    expect(reasonOf("[1, 2,]\n")).toMatch(/at line 1, column 7$/);
    expect(reasonOf('{"token": "ghp_secret" x}')).not.toContain("ghp_secret");
  });

  it("finds the first offending character without recursion, and nothing in valid JSON", () => {
    expect(jsonErrorOffset('{"a":[1,{"b":null,"c":"\\u00e9"}],"d":-1.5e3}')).toBeUndefined();
    expect(jsonErrorOffset(`${"[".repeat(100_000)}x`)).toBe(100_000);
    expect(jsonErrorOffset('"tab\tinside"')).toBe(4);
  });
});
