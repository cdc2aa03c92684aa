import { spawn } from "node:child_process";

/** Runs a program (not node) to its end with both streams collected; killed after timeoutMs. */
export function runProgram(file: string, args: string[], opts: { timeoutMs: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
