import { describe, expect, it } from "vitest";
import { terminalSafe } from "../terminal.js";

describe("terminalSafe", () => {
  it.each([
    ["OSC 52 clipboard write", "\u001b]52;c;ZXZpbA==\u0007", "\\x1b]52;c;ZXZpbA==\\x07"],
    ["CSI line erase", "\u001b[2Kok", "\\x1b[2Kok"],
    ["CR overwriting a line", "stored\r\u2714 Receipt verified", "stored\\x0d\u2714 Receipt verified"],
    ["C1 CSI and DEL", "\u009b31m\u007f", "\\x9b31m\\x7f"],
    ["bidi override and isolate", "\u202eevil\u2066x\u2069", "\\u202eevil\\u2066x\\u2069"],
    ["line separator", "a\u2028b", "a\\u2028b"],
  ])("escapes %s", (_, input, shown) => {
    expect(terminalSafe(input)).toBe(shown);
  });

  it("keeps newlines, tabs and ordinary text (accents, emoji, CJK) as they are", () => {
    const text = "line one\n\tline two: café ✔ 日本 🚀";
    expect(terminalSafe(text)).toBe(text);
  });
});
