import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const PACKAGE_DIR = join(import.meta.dirname, "../..");
const EXAMPLE = join(import.meta.dirname, "../../../../examples/receipt.json");

/** The environment of someone who installed the tarball: no workspace, no npm or pnpm settings of this run. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const kept = Object.entries(process.env).filter(([k]) => !/^(npm_|pnpm_|PNPM_|NODE_PATH$|NODE_OPTIONS$|CAIRN_|VITEST|TURBO)/i.test(k));
  return { ...(Object.fromEntries(kept) as Record<string, string>), ...extra };
}

/**
 * SPEC §22: `pnpm pack` in apps/cli gives one tarball that `npm install -g` turns into a
 * working `cairn`, with no workspace around it. The install fetches PGlite from the npm
 * registry (or npm's cache); everything else is inside the tarball.
 */
describe("the packed CLI, installed with npm into an empty prefix", () => {
  let scratch: string;
  let tarball: string;
  let cairn: string;
  let serve: ChildProcess | undefined;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "cairn-packed-"));
    await run("pnpm", ["pack", "--pack-destination", scratch], { cwd: PACKAGE_DIR, env: cleanEnv({}), timeout: 120_000 });
    const [name] = (await readdir(scratch)).filter((f) => /^cairn-.*\.tgz$/.test(f));
    tarball = join(scratch, name as string);
    const prefix = join(scratch, "prefix");
    await run("npm", ["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", tarball], {
      cwd: scratch,
      env: cleanEnv({}),
      timeout: 180_000,
    });
    cairn = join(prefix, "bin", "cairn");
  }, 300_000);

  afterAll(async () => {
    if (serve && serve.exitCode === null) {
      serve.kill("SIGTERM");
      await new Promise((resolve) => serve?.once("exit", resolve));
    }
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("is one tarball whose manifest names no workspace package", async () => {
    const { stdout } = await run("tar", ["-xzOf", tarball, "package/package.json"]);
    expect(stdout).not.toContain("workspace:");
    const manifest = JSON.parse(stdout) as { bin: Record<string, string>; dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).filter((d) => d.startsWith("@cairn/"))).toEqual([]);
    expect(manifest.bin.cairn).toBe("./pack/bin.cjs");
    const { stdout: listing } = await run("tar", ["-tzf", tarball]);
    expect(listing).toContain("package/pack/bin.cjs");
    expect(listing).not.toMatch(/package\/(src|dist)\//);
  });

  it("puts a cairn on the prefix's bin/ that answers --version", async () => {
    const { version } = JSON.parse(await readFile(join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string };
    const { stdout } = await run(cairn, ["--version"], { cwd: scratch, env: cleanEnv({ HOME: scratch }) });
    expect(stdout.trim()).toBe(version);
  });

  it("serves on the embedded store and takes a receipt from the same install", async () => {
    const home = join(scratch, "home");
    const env = cleanEnv({ HOME: scratch, CAIRN_HOME: home, PORT: "0", HOST: "127.0.0.1" });
    serve = spawn(cairn, ["serve"], { cwd: scratch, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    serve.stdout?.on("data", (d) => {
      out += d;
    });
    serve.stderr?.on("data", (d) => {
      out += d;
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 90_000);
      serve?.stdout?.on("data", () => {
        const m = /listening on (http:\/\/\S+) \(embedded store/.exec(out);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      serve?.once("exit", () => {
        clearTimeout(timer);
        reject(new Error(`serve exited:\n${out}`));
      });
    });
    expect(out).toContain(`Created the admin user; its token is in ${join(home, "credentials")}`);

    const { stdout } = await run(cairn, ["receipt", "--from", EXAMPLE], { cwd: scratch, env: cleanEnv({ HOME: scratch, CAIRN_HOME: home }) });
    expect(stdout).toMatch(/^Receipt stored: /);
    expect(stdout).toContain(`url       ${url}/s/`);
    expect(stdout).toMatch(/Expires in 7 days \(\d{4}-\d{2}-\d{2}\) unless retained/);
    const stored = { id: /id\s+(art_\w+)/.exec(stdout)?.[1] ?? "" };
    expect(stored.id).toMatch(/^art_/);
    const read = await run(cairn, ["read", stored.id, "--json"], { cwd: scratch, env: cleanEnv({ HOME: scratch, CAIRN_HOME: home }) });
    expect((JSON.parse(read.stdout) as { id: string }).id).toBe(stored.id);

    // Trace ingest decodes with the OTLP descriptor bundled into the binary: no .proto file is installed.
    const { token } = JSON.parse(await readFile(join(home, "credentials"), "utf8")) as { token: string };
    const span = {
      traceId: "5b8efff798038103d269b633813fc60c",
      spanId: "eee19b7ec3c1b174",
      name: "invoke_agent",
      startTimeUnixNano: "1764600000000000000",
      endTimeUnixNano: "1764600001000000000",
    };
    const traces = await fetch(`${url}/v1/traces`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        resourceSpans: [{ resource: { attributes: [{ key: "service.name", value: { stringValue: "packed" } }] }, scopeSpans: [{ spans: [span] }] }],
      }),
    });
    expect([traces.status, await traces.json()]).toEqual([200, {}]);

    serve.kill("SIGTERM");
    const code = await new Promise((resolve) => serve?.once("exit", resolve));
    expect(code).toBe(0);
  }, 120_000);
});
