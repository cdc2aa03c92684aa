import { spawn } from "node:child_process";

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node ARGS` to its end with `input` on stdin, collecting both streams. */
export function runNode(args: string[], opts: { env: NodeJS.ProcessEnv; input?: string; cwd?: string }): Promise<ProcessResult> {
  const child = spawn(process.execPath, args, { env: opts.env, stdio: ["pipe", "pipe", "pipe"], ...(opts.cwd && { cwd: opts.cwd }) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  child.stdin.end(opts.input ?? "");
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
