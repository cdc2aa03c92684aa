import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { negotiate, shapeForVersion, versionOfHttpRequest } from "../protocol.js";

describe("protocol revisions", () => {
  it("answers a revision the SDK speaks in kind, and anything else with the newest it speaks", () => {
    expect(LATEST_PROTOCOL_VERSION).toBe("2025-11-25");
    for (const v of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) expect(negotiate(v)).toBe(v);
    for (const v of ["2026-07-28", "1999-01-01", undefined, 42]) expect(negotiate(v)).toBe("2025-11-25");
  });

  it("reads an HTTP request's revision from its header, 2025-03-26 when it has none", () => {
    const req = (headers: Record<string, string>) => new Request("http://x/mcp", { method: "POST", headers });
    expect(versionOfHttpRequest(req({ "mcp-protocol-version": "2025-06-18" }))).toBe("2025-06-18");
    expect(versionOfHttpRequest(req({}))).toBe("2025-03-26");
  });

  it("leaves resource_link blocks out for clients older than 2025-06-18, and only them", () => {
    const result = {
      content: [
        { type: "text" as const, text: "{}" },
        { type: "resource_link" as const, uri: "mcp://cairn/artifacts/art_x", name: "art_x" },
      ],
      structuredContent: {},
    };
    expect(shapeForVersion(result, "2025-06-18")).toBe(result);
    expect(shapeForVersion(result, "2025-11-25")).toBe(result);
    expect(shapeForVersion(result, "2025-03-26")).toEqual({ content: [result.content[0]], structuredContent: {} });
  });
});
