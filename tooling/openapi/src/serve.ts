import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestHome } from "@cairn/core/testing";

/** The built `cairn` command (`pnpm test` builds first). */
export const CLI_BIN = fileURLToPath(new URL("../../../apps/cli/dist/bin.cjs", import.meta.url));

export interface Served {
  url: string;
  adminToken: string;
  close(): Promise<void>;
}

/** A real `cairn serve` process on a free port of 127.0.0.1, on a throwaway embedded store. */
export async function serve(): Promise<Served> {
  const home = await createTestHome("pglite");
  const child: ChildProcess = spawn(process.execPath, [CLI_BIN, "serve"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", CAIRN_PUBLIC_URL: "", ...home.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`cairn serve did not start in 60 s:\n${output}`)), 60_000);
      child.stdout?.on("data", () => {
        const listening = output.match(/listening on (http:\/\/\S+)/)?.[1];
        if (listening) {
          clearTimeout(timer);
          resolve(listening);
        }
      });
      child.once("exit", () => {
        clearTimeout(timer);
        reject(new Error(`cairn serve exited early:\n${output}`));
      });
    });
    const adminToken = (JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")) as { token: string }).token;
    return {
      url,
      adminToken,
      async close() {
        if (child.exitCode === null) child.kill("SIGTERM");
        await exited;
        await home.dispose();
      },
    };
  } catch (err) {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    await home.dispose();
    throw err;
  }
}
