import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-process.js";

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const ME = { user: { name: "sam" }, token: { name: "laptop", kind: "human" } };

/**
 * A loopback HTTP server that answers what the test tells it to: the server the CLI
 * meets is not always a well-behaved Cairn (SPEC §31: bound time and size, check the shape).
 */
describe("the CLI against servers that stall, flood or answer nonsense", () => {
  let server: Server;
  let url = "";
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  let home = "";
  const credentials = () => join(home, "credentials");
  const login = (extra: string[] = [], env: Record<string, string> = {}) =>
    runCli(["login", "--url", url, "--token-stdin", ...extra], { env: { CAIRN_HOME: home, ...env }, input: "cairn_some_token\n" });

  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    home = await mkdtemp(join(tmpdir(), "cairn-bounds-"));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(async () => {
    server.closeAllConnections();
    if (home) await rm(home, { recursive: true, force: true });
    home = await mkdtemp(join(tmpdir(), "cairn-bounds-"));
  });
  it("a body that stalls half way ends with a clear error after the time bound; nothing is written", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"user":{"name":"sa'); // and never the rest
    };
    const started = performance.now();
    const ran = await login([], { CAIRN_CLIENT_TIMEOUT_MS: "1500" });
    const ms = performance.now() - started;
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain("did not finish within 1.5 s");
    expect(ms).toBeLessThan(6_000);
    expect(await exists(credentials())).toBe(false);
  });

  it("a body without end stops at the size bound, without holding it all; nothing is written", async () => {
    let sent = 0;
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      // At most 200 MiB, while the client still reads.
      const pump = () => {
        while (sent < 200 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    };
    const before = process.memoryUsage().rss;
    const ran = await login();
    expect(ran.code).toBe(7);
    expect(ran.stderr).toContain("larger than 64 MiB");
    expect(sent).toBeLessThan(200); // the CLI hung up instead of reading on
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
    expect(await exists(credentials())).toBe(false);
    // A declared length over the bound is refused before reading any of it.
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(1536 * 1024 * 1024) });
      res.write("{");
    };
    const declared = await runCli(["whoami"], { env: { CAIRN_HOME: home, CAIRN_URL: url, CAIRN_TOKEN: "cairn_some_token" } });
    expect(declared.code).toBe(7);
    expect(declared.stderr).toContain("larger than 64 MiB");
  });

  it("`{}` from /v1/me writes no credentials file and does not crash", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    };
    const ran = await login();
    expect(ran.code).toBe(7);
    expect(ran.stderr).toContain("did not name a user and a token");
    expect(ran.stderr).toContain("Nothing was written");
    expect(await exists(credentials())).toBe(false);
  });

  it("refuses a --url with user:password@, never storing or echoing the password", async () => {
    let asked = 0;
    handler = (_req, res) => {
      asked++;
      res.end(JSON.stringify(ME));
    };
    const withPassword = url.replace("http://", "http://admin:hunter2@");
    const ran = await runCli(["login", "--url", withPassword, "--token-stdin"], { env: { CAIRN_HOME: home }, input: "cairn_some_token\n" });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("must not carry a user name or password");
    expect(ran.stdout + ran.stderr).not.toContain("hunter2");
    expect(asked).toBe(0);
    expect(await exists(credentials())).toBe(false);
  });

  it("an unreadable credentials file is kept as credentials.previous before login replaces it", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(ME));
    };
    await writeFile(credentials(), "cairn_the_only_copy (hand-edited, not JSON)\n", { mode: 0o600 });
    const ran = await login();
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain(`kept in ${credentials()}.previous`);
    expect(await readFile(`${credentials()}.previous`, "utf8")).toBe("cairn_the_only_copy (hand-edited, not JSON)\n");
    expect(JSON.parse(await readFile(credentials(), "utf8"))).toEqual({ url, token: "cairn_some_token" });
  });
});
