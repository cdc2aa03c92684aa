import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestHome, type Driver } from "@cairn/core/testing";

export const CLI_BIN = fileURLToPath(new URL("../../../apps/cli/dist/bin.cjs", import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  adminToken: string;
  env: Record<string, string>;
  output(): string;
  /** Resident memory of the server process, in MB (Linux). */
  rssMb(): number;
  close(): Promise<void>;
}

/** The built `cairn serve` as a real process on a free port, on a throwaway store. */
export async function spawnServe(driver: Driver): Promise<ServeProcess> {
  const home = await createTestHome(driver);
  const child = spawn(process.execPath, [CLI_BIN, "serve"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...home.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 60_000);
    child.stdout?.on("data", () => {
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once("exit", () => {
      clearTimeout(timer);
      reject(new Error(`serve exited early:\n${out}`));
    });
  });
  const adminToken = (JSON.parse(readFileSync(join(home.home, "credentials"), "utf8")) as { token: string }).token;
  return {
    child,
    url,
    adminToken,
    env: home.env,
    output: () => out,
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
    },
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      await home.dispose();
    },
  };
}

/** Polls /healthz every `everyMs` until stopped; returns every latency seen (a timeout counts as its limit). */
export function pollHealth(url: string, everyMs = 100): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
        await res.text();
      } catch {
        // A refused or timed-out health check is as bad as the limit.
      }
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}
