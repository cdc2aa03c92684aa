import { describe, expect, it } from "vitest";
import { isUnavailable, translateFault } from "../store/faults.js";

describe("a database that refuses connections is unavailable, not an internal error", () => {
  it.each(["55000", "57P03", "3D000", "28000", "28P01", "53300", "08006", "57014", "25006"])("SQLSTATE %s is unavailable (503, retry)", (code) => {
    expect(isUnavailable({ code })).toBe(true);
    expect(translateFault({ code })).toMatchObject({ code: "unavailable" });
  });

  it.each(["23505", "22008", "42P01", "CA001"])("SQLSTATE %s is a fault of the query, not of the database being away", (code) => {
    expect(isUnavailable({ code })).toBe(false);
    expect(translateFault({ code })).toMatchObject({ name: "StoreError", code });
  });
});
