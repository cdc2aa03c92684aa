import { LIMITS, type Store } from "@cairn/core";
import { createTestWorld, openTestStore, type TestWorld } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpHttpHandler } from "../http.js";

type Json = Record<string, any>;

/** /mcp's body, read once and handed to the SDK parsed: what a client sees for each kind of body. */
describe("the /mcp handler's request body", () => {
  let store: Store;
  let world: TestWorld;
  let handle: ReturnType<typeof createMcpHttpHandler>;
  let token: string;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    world = await createTestWorld(store);
    token = (await world.user("sam")).token;
    handle = createMcpHttpHandler(world.cairn, { version: "test" });
  });
  afterAll(() => store?.close());

  const post = (body: string | ReadableStream<Uint8Array>, contentType = "application/json") =>
    handle(
      new Request("http://x/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": contentType,
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body,
        ...(body instanceof ReadableStream && { duplex: "half" }),
      } as RequestInit),
    );
  const call = (id: number, method: string, params: Json = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
  const initialize = call(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });

  it("answers a JSON call in JSON, once read", async () => {
    const res = await post(initialize);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(((await res.json()) as Json).result.serverInfo.name).toBeTruthy();
  });

  it("says where a body that is not JSON breaks", async () => {
    const res = await post('{"jsonrpc": "2.0",\n  "id": 1,, }');
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as Json;
    expect(error.code).toBe(-32700);
    expect(error.message).toBe("Parse error: the request body is not valid JSON: Expected double-quoted property name at line 2, column 11");
  });

  it("refuses a body over the limit, sent without a length, before reading it all", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > LIMITS.requestBytes * 2) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await post(stream);
    expect(res.status).toBe(413);
    expect(((await res.json()) as Json).error.message).toContain(String(LIMITS.requestBytes));
    expect(sent).toBeLessThan(LIMITS.requestBytes * 2);
  });

  it("leaves another content type to the SDK, which refuses it", async () => {
    const res = await post(initialize, "text/plain");
    expect(res.status).toBe(415);
  });
});
