import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFetch } from "../client/transport.js";

/**
 * The binary's HTTP client (node:http in place of fetch) against a real HTTP server: it
 * must answer the CLI the way fetch did, so commands print and exit exactly as before.
 */
describe("the CLI's HTTP client", () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }> = [];
  let resets = 0;
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void> = {
    "/json": (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('\uFEFF{"ok":true,"text":"ü"}'),
    "/echo": (req, res, body) => res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ method: req.method, body })),
    "/moved": (_req, res) => res.writeHead(307, { location: "/echo" }).end(),
    "/elsewhere": (_req, res) => res.writeHead(302, { location: `${base}/json` }).end(),
    "/stream": (_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write('{"n":1}\n');
      setTimeout(() => res.end('{"n":2}\n'), 20);
    },
    "/cut": (_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson", "content-length": "1000" });
      res.write('{"n":1}\n');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    "/reset-once": (req, res) => {
      if (resets++ === 0 && req.headers["x-try"] === "first") return void req.socket.destroy();
      res.writeHead(200, { "content-type": "text/plain" }).end("second try");
    },
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => {
        body += d;
      });
      req.on("end", () => {
        seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
        (routes[req.url ?? ""] ?? ((_q, s) => s.writeHead(404).end("missing")))(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reads a JSON answer as fetch does: status, headers, UTF-8 text without a byte-order mark", async () => {
    const res = await nodeFetch(`${base}/json`);
    expect([res.ok, res.status, res.headers.get("Content-Type")]).toEqual([true, 200, "application/json"]);
    expect(await res.text()).toBe('{"ok":true,"text":"ü"}');
    const missing = await nodeFetch(`${base}/nothing`);
    expect([missing.ok, missing.status, await missing.text()]).toEqual([false, 404, "missing"]);
  });

  it("sends the method, headers and body it is given", async () => {
    const res = await nodeFetch(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: '{"a":"é"}',
    });
    expect(JSON.parse(await res.text())).toEqual({ method: "POST", body: '{"a":"é"}' });
    const sent = seen.at(-1);
    expect(sent?.headers).toMatchObject({ authorization: "Bearer t", "content-length": String(Buffer.byteLength('{"a":"é"}')) });
  });

  it("follows a redirect the way fetch does, or answers it as it is when asked to", async () => {
    const moved = await nodeFetch(`${base}/moved`, { method: "POST", body: "kept" });
    expect(JSON.parse(await moved.text())).toEqual({ method: "POST", body: "kept" });
    expect(await (await nodeFetch(`${base}/elsewhere`)).text()).toBe('{"ok":true,"text":"ü"}');
    const manual = await nodeFetch(`${base}/moved`, { method: "POST", body: "x", redirect: "manual" });
    expect([manual.status, manual.headers.get("location")]).toEqual([307, "/echo"]);
  });

  it("streams a body as it arrives, and a body cut short fails its reader, not the process", async () => {
    const lines: string[] = [];
    for await (const chunk of (await nodeFetch(`${base}/stream`)).body ?? []) lines.push(Buffer.from(chunk).toString());
    expect(lines.join("")).toBe('{"n":1}\n{"n":2}\n');
    const cut = await nodeFetch(`${base}/cut`);
    await expect(cut.text()).rejects.toThrow();
  });

  it("fails like fetch when there is no answer: a TypeError whose cause names the system error", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const err = await nodeFetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
    const controller = new AbortController();
    controller.abort(new DOMException("no answer", "TimeoutError"));
    await expect(nodeFetch(`${base}/json`, { signal: controller.signal })).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("sends a read again when a kept-alive connection was closed under it, never a write", async () => {
    await (await nodeFetch(`${base}/json`)).text(); // leaves a kept-alive socket
    const read = await nodeFetch(`${base}/reset-once`, { headers: { "x-try": "first" } });
    expect(await read.text()).toBe("second try");
    await (await nodeFetch(`${base}/json`)).text();
    resets = 0;
    const write = await nodeFetch(`${base}/reset-once`, { method: "POST", headers: { "x-try": "first" }, body: "once" }).catch((e: unknown) => e);
    expect(write).toBeInstanceOf(TypeError);
  });
});
