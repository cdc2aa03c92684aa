import { describe, expect, it } from "vitest";
import { createLogger } from "../log.js";

const capture = () => {
  const lines: string[] = [];
  return { lines, log: createLogger({ write: (l) => void lines.push(l) }) };
};

describe("the logger", () => {
  it("prints an error's class, code and frames, never its message or other properties", () => {
    const { lines, log } = capture();
    const err = Object.assign(new Error('invalid input syntax for type integer: "SECRET-1"'), {
      code: "22P02",
      query: "insert into artifacts values ($1)",
      params: ["SECRET-2"],
      detail: "SECRET-3",
    });
    log.error({ code: "internal", requestId: "req-1" }, err);
    expect(lines).toHaveLength(1);
    const [head, ...frames] = (lines[0] as string).split("\n");
    expect(head).toBe("cairn error internal requestId=req-1 error=Error error_code=22P02");
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((f) => /^ {4}at /.test(f) && !f.includes("node_modules"))).toBe(true);
    expect(lines[0]).not.toMatch(/SECRET|insert into/);
  });

  it("prints explicit fields only: values capped and escaped, odd keys and objects dropped", () => {
    const { lines, log } = capture();
    log.info("request", { method: "GET", path: "/v1/x\nFAKE line", ms: 1.5, "bad key": "no", long: "y".repeat(500) });
    expect(lines[0]).toMatch(/^cairn info request method=GET path="\/v1\/x\\u000aFAKE line" ms=1.5 long=y{200}…$/);
    // A value that is not a primitive never prints (the type forbids it; at runtime it is dropped).
    log.warn({ code: "x", nested: { secret: "SECRET-4" } as never });
    expect(lines[1]).toBe("cairn warn x");
    log.warn({ code: "not a code; rm -rf" });
    expect(lines[2]).toBe("cairn warn warning");
  });
});
