import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type Driver, freshPgliteDir } from "@cairn/core/testing";

export const CLI_BIN = join(import.meta.dirname, "../../dist/bin.js");

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns the built `cairn serve` on a free port and waits for its listening line. */
export async function spawnServe(env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI_BIN, "serve"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 60_000);
    const check = () => {
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", () => {
      clearTimeout(timer);
      reject(new Error(`serve exited early:\n${out}`));
    });
  });
  return {
    child,
    url,
    output: () => out,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A CAIRN_HOME whose embedded store starts from the pre-initialised template (fast), or a throwaway Postgres. */
export async function homeFor(driver: Driver): Promise<{ env: Record<string, string>; home: string; dispose(): Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), "cairn-home-"));
  if (driver === "pglite") {
    renameSync(await freshPgliteDir(), join(home, "pgdata"));
    return { env: { CAIRN_HOME: home }, home, dispose: async () => {} };
  }
  const db = await createTestDatabase("pg");
  return { env: { CAIRN_HOME: home, DATABASE_URL: db.databaseUrl as string }, home, dispose: () => db.dispose() };
}
