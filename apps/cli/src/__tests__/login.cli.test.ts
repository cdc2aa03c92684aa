import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveSettings } from "@cairn/core/local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../server.js";
import { type CliServer, cliUser, runCli, startCliServer } from "./cli-process.js";
import { CLI_BIN, homeFor } from "./serve-process.js";

/** A port nothing listens on: bound, read, released. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe("cairn login and logout (SPEC §22)", () => {
  let server: CliServer;
  let home: string;
  const credentials = () => join(home, "credentials");
  const asNewcomer = () => ({ CAIRN_HOME: home });

  beforeAll(async () => {
    server = await startCliServer("pglite");
    home = await mkdtemp(join(tmpdir(), "cairn-login-"));
  });
  afterAll(async () => {
    await server?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("with a good token checks it against /v1/me, then writes {url, token} with mode 0600; commands then use it", async () => {
    const dana = await cliUser(server, "dana");
    const url = server.serve.url;
    const res = await runCli(["login", "--url", `${url}/`, "--token-stdin"], { env: asNewcomer(), input: `${dana.token}\n` });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Signed in to ${url} as ${dana.name} with token "\\S+" \\(human\\)\\.\\n$`));
    expect(res.stderr).toContain(`Credentials: ${credentials()} (mode 0600).`);
    expect(JSON.parse(await readFile(credentials(), "utf8"))).toEqual({ url, token: dana.token });
    expect((await stat(credentials())).mode & 0o777).toBe(0o600);
    const whoami = await runCli(["whoami"], { env: asNewcomer() });
    expect(whoami.stdout).toContain(dana.name);
  });

  it("on a terminal asks for the token without echoing it", async () => {
    const ptyHome = await mkdtemp(join(tmpdir(), "cairn-login-pty-"));
    try {
      // util-linux `script` gives the command a pseudo-terminal, echo on (its default when its own
      // input is not a terminal): what we write is typed there, and shows unless the prompt hides it.
      const command = `${process.execPath} ${CLI_BIN} login --url ${server.serve.url}`;
      const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
        env: { ...process.env, CAIRN_HOME: ptyHome, CAIRN_URL: "", CAIRN_TOKEN: "" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let seen = "";
      let typed = false;
      child.stdout.on("data", (d) => {
        seen += d;
        if (!typed && seen.includes("(input hidden): ")) {
          typed = true;
          child.stdin.write(`${server.adminToken}\r`);
        }
      });
      const code = await new Promise((resolve) => child.once("exit", resolve));
      child.stdin.end();
      expect(code, seen).toBe(0);
      expect(seen).toContain(`Token for ${server.serve.url} (input hidden): `);
      expect(seen).toContain(`Signed in to ${server.serve.url} as admin`);
      expect(seen).not.toContain(server.adminToken);
      expect(JSON.parse(await readFile(join(ptyHome, "credentials"), "utf8")).token).toBe(server.adminToken);
    } finally {
      await rm(ptyHome, { recursive: true, force: true });
    }
  });

  it("with a bad token or a dead URL is a clear error and writes nothing", async () => {
    const before = await readFile(credentials(), "utf8");
    const bad = await runCli(["login", "--url", server.serve.url, "--token-stdin"], { env: asNewcomer(), input: "cairn_not_a_real_token_at_all" });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain(`cairn: ${server.serve.url} refused that token (unauthenticated). Nothing was written.`);
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const unreachable = await runCli(["login", "--url", dead, "--token-stdin"], { env: asNewcomer(), input: server.adminToken });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toMatch(new RegExp(`^cairn: cannot reach Cairn at ${dead} \\(connection refused\\).*Nothing was written\\.$`, "m"));
    const notUrl = await runCli(["login", "--url", "ftp://x", "--token-stdin"], { env: asNewcomer(), input: server.adminToken });
    expect(notUrl.code).toBe(2);
    const empty = await runCli(["login", "--url", server.serve.url, "--token-stdin"], { env: asNewcomer(), input: "  \n" });
    expect([empty.code, empty.stderr]).toEqual([2, "cairn: no token given; nothing was written.\n"]);
    const noTerminal = await runCli(["login", "--url", server.serve.url], { env: asNewcomer() });
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain("pipe it in with --token-stdin");
    expect(await readFile(credentials(), "utf8")).toBe(before);
    expect(await exists(`${credentials()}.previous`)).toBe(false);
  });

  it("keeps the token a file held before beside it, and logout removes the file", async () => {
    const first = JSON.parse(await readFile(credentials(), "utf8")) as { token: string };
    const res = await runCli(["login", "--url", server.serve.url, "--token-stdin"], { env: asNewcomer(), input: server.adminToken });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`The token it held before is kept in ${credentials()}.previous.`);
    expect(JSON.parse(await readFile(`${credentials()}.previous`, "utf8")).token).toBe(first.token);

    const out = await runCli(["logout"], { env: asNewcomer() });
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(`Removed ${credentials()} (the token for ${server.serve.url}).\n`);
    expect(out.stderr).toContain("still works until it is revoked");
    expect(await exists(credentials())).toBe(false);
    const again = await runCli(["logout"], { env: asNewcomer() });
    expect([again.code, again.stderr]).toEqual([0, `Not signed in: there is no ${credentials()}.\n`]);
    const after = await runCli(["whoami"], { env: asNewcomer() });
    expect(after.code).toBe(4);
  });

  it("a file cairn login pointed at another server survives a local cairn serve: kept aside on the first start, left alone after", async () => {
    const { env, home: serveHome, dispose } = await homeFor("pglite");
    try {
      const settings = resolveSettings({ ...env, PORT: "0", HOST: "127.0.0.1" });
      const remote = `${JSON.stringify({ url: "https://cairn.example.com", token: "cairn_remote_token_kept_aside_00000000" }, null, 2)}\n`;
      await writeFile(join(serveHome, "credentials"), remote, { mode: 0o600 });
      const lines: string[] = [];
      await (await startServer(settings, { info: (line) => lines.push(line) }, "test")).close();
      expect(await readFile(join(serveHome, "credentials.previous"), "utf8")).toBe(remote);
      expect(lines).toContain(`The credentials file held another token; it is kept in ${join(serveHome, "credentials")}.previous.`);
      const elsewhere = `${JSON.stringify({ url: "https://cairn.example.com", token: "cairn_someone_elses_token_0000000000" }, null, 2)}\n`;
      await writeFile(join(serveHome, "credentials"), elsewhere, { mode: 0o600 });
      await (await startServer(settings, { info: () => {} }, "test")).close();
      expect(await readFile(join(serveHome, "credentials"), "utf8")).toBe(elsewhere);
    } finally {
      await dispose();
    }
  });
});
