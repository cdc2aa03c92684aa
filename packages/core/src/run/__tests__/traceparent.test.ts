import { describe, expect, it } from "vitest";
import { parseTraceparent } from "../traceparent.js";

describe("W3C traceparent", () => {
  const trace = "4bf92f3577b34da6a3ce929d0e0e4736";
  const span = "00f067aa0ba902b7";

  it("reads the trace and parent span ids of a version 00 header, sampled or not", () => {
    expect(parseTraceparent(`00-${trace}-${span}-01`)).toEqual({ trace_id: trace, parent_span_id: span });
    expect(parseTraceparent(` 00-${trace}-${span}-00 `)).toEqual({ trace_id: trace, parent_span_id: span });
    // A later version may add fields after the flags.
    expect(parseTraceparent(`01-${trace}-${span}-01-extra`)).toEqual({ trace_id: trace, parent_span_id: span });
  });

  it("ignores what W3C Trace Context calls invalid", () => {
    for (const bad of [
      undefined,
      "",
      `00-${trace.toUpperCase()}-${span}-01`,
      `ff-${trace}-${span}-01`,
      `00-${"0".repeat(32)}-${span}-01`,
      `00-${trace}-${"0".repeat(16)}-01`,
      `00-${trace}-${span}-01-extra`,
      `00-${trace.slice(1)}-${span}-01`,
      `00_${trace}_${span}_01`,
    ]) {
      expect(parseTraceparent(bad), String(bad)).toBeNull();
    }
  });
});
