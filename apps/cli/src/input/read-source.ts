import { readFile, stat } from "node:fs/promises";
import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";
import type { CliIo } from "../io.js";
import { rejectedInput } from "./rejected.js";

async function readStdin(io: CliIo, limit: number): Promise<Buffer> {
  if (io.stdinIsTty) io.err("Reading from standard input (end with Ctrl-D)…");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk);
    size += bytes.byteLength;
    if (size > limit) throw tooLarge(limit);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

const tooLarge = (limit: number) => rejectedInput(`is larger than ${limit} bytes, the server's request limit`, limit);

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "is a directory",
  EACCES: "permission denied",
};

/**
 * Reads a file (or standard input for `-`) as UTF-8 text, without a byte-order mark.
 * A path that cannot be read is a usage error; a file over the server's request limit
 * is refused before anything is sent.
 */
export async function readSource(io: CliIo, path: string, flag: string, limit: number): Promise<string> {
  let bytes: Buffer;
  if (path === "-") {
    bytes = await readStdin(io, limit);
  } else {
    try {
      if ((await stat(path)).size > limit) throw tooLarge(limit);
      bytes = await readFile(path);
    } catch (err) {
      if (err instanceof CliFailure) throw err;
      const code = (err as NodeJS.ErrnoException).code ?? "";
      throw new CliFailure(EXIT.usage, `${flag}: cannot read ${path}: ${REASONS[code] ?? (err as Error).message}`);
    }
  }
  return bytes.toString("utf8").replace(/^\uFEFF/, "");
}
