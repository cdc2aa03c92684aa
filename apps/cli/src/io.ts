import { once } from "node:events";

/**
 * Everything a command touches outside itself: its streams and its environment. `bin.ts`
 * passes the process's; tests pass their own, so most CLI tests run in one process.
 */
export interface CliIo {
  /** One line on stdout (results). */
  out(text: string): void;
  /** One line on stderr (messages for people). */
  err(text: string): void;
  /** Raw text on stdout, resolving once the stream can take more (export's NDJSON). */
  write(text: string): Promise<void>;
  /** Raw text on stderr, for a live counter on a terminal. */
  progress(text: string): void;
  stdin: AsyncIterable<Uint8Array | string>;
  stdinIsTty: boolean;
  stderrIsTty: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

export function processIo(): CliIo {
  return {
    out: (text) => void process.stdout.write(`${text}\n`),
    err: (text) => void process.stderr.write(`${text}\n`),
    async write(text) {
      if (!process.stdout.write(text)) await once(process.stdout, "drain");
    },
    progress: (text) => void process.stderr.write(text),
    stdin: process.stdin,
    stdinIsTty: process.stdin.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
    env: process.env,
  };
}
