import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveSettings } from "@cairn/core/local";
import { type Driver, runNode } from "@cairn/core/testing";
import { nodeFetch } from "../client/transport.js";
import type { CliIo } from "../io.js";
import { main } from "../main.js";
import { startServer } from "../server.js";
import { CLI_BIN, homeFor } from "./serve-process.js";

export const REPO_ROOT = join(import.meta.dirname, "../../../..");
export const EXAMPLE_JSON = join(REPO_ROOT, "examples/receipt.json");
export const EXAMPLE_YAML = join(REPO_ROOT, "examples/receipt.yaml");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (undefined when it is not JSON). */
  json: any;
}

function withJson(ran: { code: number | null; stdout: string; stderr: string }): CliResult {
  let json: unknown;
  try {
    json = JSON.parse(ran.stdout);
  } catch {
    json = undefined;
  }
  return { ...ran, json };
}

type CliOptions = {
  env?: Record<string, string>;
  input?: string;
  /** The entry to run the line through: `main` (the default, as the binary does), or `runProgram` to skip the quick path. */
  entry?: typeof main;
};

/** The test's environment without CAIRN_URL/CAIRN_TOKEN, so each call says exactly what it talks to. */
function environment(env: Record<string, string> | undefined): Record<string, string | undefined> {
  const { CAIRN_URL: _u, CAIRN_TOKEN: _t, ...inherited } = process.env;
  return { ...inherited, ...env };
}

/**
 * Runs a `cairn` command line in this process through `main`, the entry the binary
 * uses, with its own streams and the binary's HTTP client: what it prints and the exit
 * code it returns.
 */
export async function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const input = opts.input ?? "";
  const io: CliIo = {
    out: (text) => void stdout.push(`${text}\n`),
    err: (text) => void stderr.push(`${text}\n`),
    write: async (text) => void stdout.push(text),
    progress: (text) => void stderr.push(text),
    stdin: (async function* () {
      if (input !== "") yield Buffer.from(input, "utf8");
    })(),
    stdinIsTty: false,
    stderrIsTty: false,
    env: environment(opts.env),
  };
  const code = await (opts.entry ?? main)(args, io, nodeFetch, "test");
  return withJson({ code, stdout: stdout.join(""), stderr: stderr.join("") });
}

/** Runs the built `cairn` binary in its own process: the smoke tests that the binary itself behaves. */
export async function spawnCli(args: string[], opts: CliOptions & { nodeArgs?: string[] } = {}): Promise<CliResult> {
  const env = Object.fromEntries(Object.entries(environment(opts.env)).filter((e): e is [string, string] => e[1] !== undefined));
  return withJson(await runNode([...(opts.nodeArgs ?? []), CLI_BIN, ...args], { env, input: opts.input ?? "", cwd: REPO_ROOT }));
}

export interface CliServer {
  serve: { url: string };
  home: string;
  /** Environment that points the CLI at this server through the credentials file. */
  env: Record<string, string>;
  adminToken: string;
  /** GET/POST straight to REST, for comparing with what the CLI prints. */
  rest(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; text: string; json: any }>;
  stop(): Promise<void>;
}

/** A real server (what `cairn serve` runs, in this process) on the driver, with the admin's credentials file in its CAIRN_HOME. */
export async function startCliServer(driver: Driver): Promise<CliServer> {
  const { env, home, dispose } = await homeFor(driver);
  const serve = await startServer(resolveSettings({ ...env, PORT: "0", HOST: "127.0.0.1" }), { info: () => {} }, "test");
  const creds = JSON.parse(readFileSync(join(home, "credentials"), "utf8")) as { token: string };
  return {
    serve,
    home,
    env: { CAIRN_HOME: home },
    adminToken: creds.token,
    async rest(method, path, token, body) {
      const res = await fetch(`${serve.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, text, json };
    },
    async stop() {
      await serve.close();
      await dispose();
    },
  };
}

let counter = 0;
/** A fresh user made through `cairn user create`, returned with an env that acts as them. */
export async function cliUser(server: CliServer, prefix = "u"): Promise<{ name: string; token: string; env: Record<string, string> }> {
  const name = `${prefix}-${process.pid}-${++counter}`;
  const made = await runCli(["user", "create", name], { env: server.env });
  if (made.code !== 0) throw new Error(`user create failed: ${made.stderr}`);
  const token = made.stdout.trim();
  return { name, token, env: { ...server.env, CAIRN_TOKEN: token } };
}
