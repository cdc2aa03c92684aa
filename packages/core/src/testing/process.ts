import { spawn } from "node:child_process";

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunNodeOptions {
  /** The child's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; `null` leaves stdin open (close it from onStderr). */
  input?: string | null;
  cwd?: string;
  /** Killed (SIGKILL) after this long, so a hung child fails its test instead of stalling it. */
  timeoutMs?: number;
  /** Called with everything on stderr so far, each time more arrives. */
  onStderr?(text: string, stdin: NodeJS.WritableStream): void;
}

/** Runs `node ARGS` to its end, collecting both streams: the one process helper of every package's tests. */
export function runNode(args: string[], opts: RunNodeOptions = {}): Promise<ProcessResult> {
  const child = spawn(process.execPath, args, { env: opts.env ?? process.env, stdio: ["pipe", "pipe", "pipe"], ...(opts.cwd && { cwd: opts.cwd }) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
    opts.onStderr?.(stderr, child.stdin);
  });
  if (opts.input !== null) child.stdin.end(opts.input ?? "");
  const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
