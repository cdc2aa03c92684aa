import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { createTestHome } from "@cairn/core/testing";

export const CLI_BIN = join(import.meta.dirname, "../../dist/bin.cjs");

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** What the server wrote to stderr alone: its log (stdout holds the startup lines). */
  errors(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns the built `cairn serve` on a free port and waits for its listening line. */
export async function spawnServe(env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI_BIN, "serve"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
    err += d;
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
    errors: () => err,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A CAIRN_HOME for a spawned or in-process `cairn serve` (see createTestHome). */
export const homeFor = createTestHome;

/** Spawns the built `cairn worker` and waits until it says it is running. */
export async function spawnWorker(env: Record<string, string>): Promise<Omit<ServeProcess, "url">> {
  const child = spawn(process.execPath, [CLI_BIN, "worker"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${out}`)), 60_000);
    child.stdout?.on("data", () => {
      if (out.includes("Worker running")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", () => {
      clearTimeout(timer);
      reject(new Error(`worker exited early:\n${out}`));
    });
  });
  return {
    child,
    output: () => out,
    errors: () => err,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
