import { describe, expect, it } from "vitest";
import { isoOfStoredInstant } from "../dates.js";

/** Instants whose ISO string the day-keeping formatter must write exactly as toISOString does. */
const EDGES = [
  Date.parse("1970-01-01T00:00:00.000Z"),
  Date.parse("1970-01-01T00:00:00.001Z"),
  Date.parse("2026-12-04T23:59:59.999Z"),
  Date.parse("2026-12-05T00:00:00.000Z"),
  Date.parse("2028-02-29T12:34:56.789Z"),
  Date.parse("2028-03-01T00:00:00.000Z"),
  Date.parse("9999-12-31T23:59:59.999Z"),
  Date.parse("2026-12-04T10:00:00.000Z") + 0.5,
];

describe("an instant written as ISO 8601 the way toISOString writes it", () => {
  it.each(EDGES)("%d, on its own and after an instant of another day", (ms) => {
    expect(isoOfStoredInstant(ms)).toBe(new Date(ms).toISOString());
    isoOfStoredInstant(ms - 86_400_000 * 3);
    expect(isoOfStoredInstant(ms)).toBe(new Date(ms).toISOString());
    // Again with the day kept from the call before.
    expect(isoOfStoredInstant(ms)).toBe(new Date(ms).toISOString());
  });

  it("agrees over every few seconds of two days, back and forth between them", () => {
    const start = Date.parse("2026-12-04T00:00:00.000Z");
    for (let i = 0; i < 20_000; i++) {
      const ms = start + i * 8_641 + (i % 2) * 86_400_000;
      expect(isoOfStoredInstant(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
