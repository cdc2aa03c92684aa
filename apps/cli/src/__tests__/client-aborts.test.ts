import { connect } from "node:net";
import { createTestHome } from "@cairn/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTokenIn } from "./mcp-harness.js";
import { type ServeProcess, spawnServe } from "./serve-process.js";

/** Opens a raw connection, sends the head and the start of a body, then calls `then` with the socket; answers what came back. */
function rawRequest(url: string, head: string, then: (socket: ReturnType<typeof connect>) => void, limitMs = 10_000): Promise<{ text: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    let text = "";
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      then(socket);
    });
    socket.on("data", (d) => {
      text += d;
    });
    socket.on("error", () => {});
    const limit = setTimeout(() => socket.destroy(), limitMs);
    socket.on("close", () => {
      clearTimeout(limit);
      resolve({ text, ms: performance.now() - started });
    });
  });
}

const post = (path: string, token: string, type: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${type}\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n`;

describe("cairn serve and clients that leave mid-body or send it too slowly", () => {
  let home: Awaited<ReturnType<typeof createTestHome>>;
  let serve: ServeProcess;
  let token: string;

  beforeAll(async () => {
    home = await createTestHome("pglite");
    serve = await spawnServe({ ...home.env, CAIRN_REQUEST_TIMEOUT_MS: "1500" });
    token = adminTokenIn(home.home);
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    await home?.dispose();
  });

  it.each([
    ["REST", "/v1/receipts", "application/json", '{"title":'],
    ["MCP", "/mcp", "application/json", '{"jsonrpc":"2.0",'],
    ["web", "/signin", "application/x-www-form-urlencoded", "token=abc"],
  ])("a %s client that disconnects mid-body is logged at info as an abort, no stack, no 500", async (_surface, path, type, start) => {
    const before = serve.output().length;
    await rawRequest(serve.url, post(path, token, type) + start, (socket) => setTimeout(() => socket.destroy(), 200));
    await expect.poll(() => serve.output().slice(before), { timeout: 5_000 }).toContain("cairn info client_aborted");
    const log = serve.output().slice(before);
    expect(log).toMatch(new RegExp(`client_aborted surface=\\w+ method=POST( path=${path.replace(/\//g, "\\/")})?`));
    expect(log).not.toMatch(/cairn error|internal|status=500|\n\s+at /);
  });

  it("a body that trickles past the bound is cut off with 408 after about the bound, and the server goes on", async () => {
    const before = serve.output().length;
    let timer: NodeJS.Timeout | undefined;
    const answer = await rawRequest(serve.url, post("/v1/receipts", token, "application/json"), (socket) => {
      timer = setInterval(() => socket.write(" "), 100);
      socket.on("close", () => clearInterval(timer));
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.ms).toBeGreaterThan(1_400);
    expect(answer.ms).toBeLessThan(5_000);
    await expect.poll(() => serve.output().slice(before), { timeout: 5_000 }).toContain("cairn info client_aborted");
    expect(serve.output().slice(before)).not.toMatch(/cairn error|internal/);
    const me = await fetch(`${serve.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
  });
});
