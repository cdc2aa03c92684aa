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

  it("in JSON writes one object per line: time, level, snake_case names, frames as an array, never an error's message", () => {
    const lines: string[] = [];
    const log = createLogger({ format: "json", write: (l) => void lines.push(l) });
    log.info("request", { requestId: "req-9", operation: "receipt_create", status: 201, ms: 3.5, path: "/v1/x\u2028next", "bad key": "no" });
    log.error({ code: "internal", requestId: "req-9" }, Object.assign(new Error("SECRET-5 in the message"), { code: "22P02" }));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.split("\n")).toHaveLength(1);
    expect(lines[0]).not.toContain("\u2028");
    const [info, error] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(info).toEqual({
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      level: "info",
      event: "request",
      request_id: "req-9",
      operation: "receipt_create",
      status: 201,
      duration: 3.5,
      path: "/v1/x\u2028next",
    });
    expect(error).toMatchObject({ level: "error", code: "internal", request_id: "req-9", error: "Error", error_code: "22P02" });
    expect(Array.isArray(error?.frames)).toBe(true);
    expect(lines[1]).not.toContain("SECRET");
  });
});
