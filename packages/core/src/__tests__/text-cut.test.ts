import { describe, expect, it } from "vitest";
import { cutWithEllipsis, isStorable } from "../text.js";

describe("cutting text to a length", () => {
  it("never leaves half of a surrogate pair, which the database refuses", () => {
    const cut = cutWithEllipsis(`${"a".repeat(8)}😀😀`, 10);
    expect(isStorable(cut)).toBe(true);
    expect(cut).toBe(`${"a".repeat(8)}…`);
  });

  it("keeps max - 1 units and an ellipsis otherwise", () => {
    expect(cutWithEllipsis("abcdefghij", 5)).toBe("abcd…");
    expect(cutWithEllipsis("a😀bcdef", 4)).toBe("a😀…");
  });
});
