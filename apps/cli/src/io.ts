import { once } from "node:events";
import { isatty } from "node:tty";

/**
 * Everything a command touches outside itself: its streams and its environment. The binary
 * (cli.ts, quick.ts) passes the process's; tests pass their own, so most CLI tests run in one process.
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
  /** Asks for a secret on the terminal without echoing it (`cairn login`); absent where there is no terminal. */
  readSecret?(prompt: string): Promise<string>;
}

/** Reads one line from a terminal in raw mode, echoing nothing; Ctrl-C or Ctrl-D gives up. */
function readSecretLine(prompt: string): Promise<string> {
  const stdin = process.stdin;
  // Echo goes off before the prompt shows: a token pasted the instant the prompt appears
  // would otherwise be echoed by the terminal before raw mode takes hold.
  stdin.setRawMode(true);
  stdin.resume();
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error?: Error) => {
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      stdin.off("error", onEnd);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") return finish();
        if (ch === "\u0003" || ch === "\u0004") return finish(new Error("cancelled; nothing was written."));
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    // A closed or broken stdin ends the prompt instead of leaving it waiting forever.
    const onEnd = () => finish(new Error("no token was typed (input ended); nothing was written."));
    stdin.once("end", onEnd);
    stdin.once("error", onEnd);
    stdin.on("data", onData);
  });
}

/**
 * The process's streams, each touched only when a command uses it: `process.stdin` is
 * built on first use, and building it costs a command that never reads it ~4 ms of its
 * start (docs/adr/0067). Whether fd 0 is a terminal is asked of the descriptor instead.
 */
export function processIo(): CliIo {
  const stdinIsTty = isatty(0);
  return {
    out: (text) => void process.stdout.write(`${text}\n`),
    err: (text) => void process.stderr.write(`${text}\n`),
    async write(text) {
      if (!process.stdout.write(text)) await once(process.stdout, "drain");
    },
    progress: (text) => void process.stderr.write(text),
    get stdin() {
      return process.stdin;
    },
    stdinIsTty,
    get stderrIsTty() {
      return process.stderr.isTTY === true;
    },
    env: process.env,
    ...(stdinIsTty && { readSecret: readSecretLine }),
  };
}
