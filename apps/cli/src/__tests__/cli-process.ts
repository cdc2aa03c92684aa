
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Driver, runNode } from "@cairn/core/testing";
import { CLI_BIN, homeFor, type ServeProcess, spawnServe } from "./serve-process.js";

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

/**
 * Runs the built `cairn` binary. The environment is the test's own: CAIRN_URL and
 * CAIRN_TOKEN are never inherited, so each call says exactly what it talks to.
 */
export function runCli(args: string[], opts: { env?: Record<string, string>; input?: string; nodeArgs?: string[] } = {}): Promise<CliResult> {
  const { CAIRN_URL: _u, CAIRN_TOKEN: _t, ...inherited } = process.env;
  return runNode([...(opts.nodeArgs ?? []), CLI_BIN, ...args], { env: { ...inherited, ...opts.env }, input: opts.input ?? "", cwd: REPO_ROOT }).then(
    (ran) => {
      let json: unknown;
      try {
        json = JSON.parse(ran.stdout);
      } catch {
        json = undefined;
      }
      return { ...ran, json };
    },
  );
}

export interface CliServer {
  serve: ServeProcess;
  home: string;
  /** Environment that points the CLI at this server through the credentials file. */
  env: Record<string, string>;
  adminToken: string;
  /** GET/POST straight to REST, for comparing with what the CLI prints. */
  rest(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; text: string; json: any }>;
  stop(): Promise<void>;
}

/** A real `cairn serve` on the driver, with the admin's credentials file in its CAIRN_HOME. */
export async function startCliServer(driver: Driver): Promise<CliServer> {
  const { env, home, dispose } = await homeFor(driver);
  const serve = await spawnServe(env);
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
      await serve.stop();
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
