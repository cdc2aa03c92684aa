import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import type { Jwk, VerifyResult } from "@cairn/core";
import type { Command } from "commander";
import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";
import type { CliIo } from "../io.js";
import { type Printer, printerFor } from "../output.js";
import type { CliCommand } from "./define.js";
import { examplesHelp } from "./define.js";
import { type CommandContext, fail, JSON_HELP, runWithClient } from "./run.js";

const EXAMPLES = [
  "cairn verify art_06h2k3m4n5p6q7r8s9t0v1w2x3",
  "cairn export --format in-toto --tag audit > audit.intoto.jsonl && cairn verify audit.intoto.jsonl",
  "cairn keys list --json > keys.json && cairn verify audit.intoto.jsonl --keys keys.json   # offline",
  "cairn export --format in-toto | cairn verify -",
];

function describe(result: VerifyResult): string {
  const who = result.id ?? "(unreadable line)";
  if (result.valid) return `ok       ${who}`;
  const check = result.checks.find((c) => c.name === result.failed);
  return `FAILED   ${who}  ${result.failed}: ${check?.detail ?? ""}`;
}

/** Keys for offline use: a JWKS (`{keys: [...]}`, as GET /v1/keys and `cairn keys list --json` give), a list or one JWK. */
async function readKeys(path: string): Promise<Partial<Jwk>[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch {
    throw CliFailure.usage(`--keys ${path}: not a readable JSON file of public keys (a JWKS).`);
  }
  if (Array.isArray(json)) return json;
  if (json && typeof json === "object" && Array.isArray((json as { keys?: unknown }).keys)) return (json as { keys: Partial<Jwk>[] }).keys;
  if (json && typeof json === "object") return [json as Partial<Jwk>];
  throw CliFailure.usage(`--keys ${path}: not a JWKS.`);
}

async function isFile(target: string): Promise<boolean> {
  if (target === "-") return true;
  return stat(target).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Lines of a file or stdin, one at a time (an export can be large). readline is loaded only for this. */
async function linesOf(io: CliIo, target: string): Promise<AsyncIterable<string>> {
  const [{ createInterface }, { Readable }] = await Promise.all([import("node:readline"), import("node:stream")]);
  const input = target === "-" ? Readable.from(io.stdin) : createReadStream(target, "utf8");
  return createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
}

function report(result: VerifyResult, json: boolean, printer: Printer): boolean {
  printer.out(json ? JSON.stringify(result) : describe(result));
  return result.valid;
}

/** Verifies every line; returns the exit code (8 when any line fails). */
async function verifyLines(io: CliIo, target: string, json: boolean, verify: (line: string) => Promise<VerifyResult>, printer: Printer): Promise<number> {
  let total = 0;
  let failed = 0;
  for await (const line of await linesOf(io, target)) {
    if (line.trim() === "") continue;
    total++;
    if (!report(await verify(line), json, printer)) failed++;
  }
  printer.err(`Verified ${total} line${total === 1 ? "" : "s"}: ${total - failed} ok, ${failed} failed.`);
  return failed > 0 || total === 0 ? EXIT.unverified : EXIT.ok;
}

/** Without a token, exported lines can still be checked: say how, on the failure that has no server to ask. */
const offlineHint = (failure: CliFailure): CliFailure =>
  failure.exitCode === EXIT.auth && /^no token/.test(failure.message)
    ? new CliFailure(failure.exitCode, failure.message, {
        hint: "an exported file verifies offline with --keys FILE (a JWKS from GET /v1/keys or `cairn keys list --json`), no token needed.",
      })
    : failure;

/** `cairn verify ID|FILE|-`: a stored receipt on the server, or exported lines — offline with `--keys`. */
export const verifyCommand: CliCommand<"receipt_verify"> = {
  operation: "receipt_verify",
  words: ["verify"],
  async commandLine(input) {
    const { id, line } = (input ?? {}) as { id?: unknown; line?: unknown };
    if (typeof line === "string") return { args: ["verify", "-", "--json"], stdin: line, successExit: () => 0 };
    if (typeof id === "string") return { args: ["verify", id, "--json"], successExit: () => 0 };
    return null;
  },
  async register(parent: Command, ctx: CommandContext) {
    parent
      .command("verify")
      .description(
        "Verify a receipt by id (the server re-renders its body and compares checksums), or every line of an in-toto export (FILE, or - for stdin): payload, key, signature and checksum. With --keys FILE it runs offline. Exits 8 when a check fails, naming it.",
      )
      .argument("<target>", "An artifact id, an exported file, or - for standard input.")
      .option("--keys <file>", "Public keys (a JWKS: GET /v1/keys or `cairn keys list --json`) to verify exported lines offline, without a server.")
      .option("--json", `${JSON_HELP} For a file, one result object per line.`)
      .addHelpText("after", examplesHelp(EXAMPLES))
      .action(async (target: string, opts: { keys?: string; json?: boolean }) => {
        const json = opts.json === true;
        const file = await isFile(target);
        if (opts.keys !== undefined) {
          try {
            if (!file) throw CliFailure.usage(`--keys verifies exported lines offline: ${target} is not a file (use - for stdin).`);
            const keys = await readKeys(opts.keys);
            const { verifyLine } = await import("@cairn/core");
            ctx.exitCode = await verifyLines(ctx.io, target, json, async (line) => verifyLine(line, keys), printerFor(ctx.io, json));
          } catch (err) {
            fail(ctx, err, json);
          }
          return;
        }
        await runWithClient(
          ctx,
          json,
          async (client, printer) => {
            if (file) return verifyLines(ctx.io, target, json, async (line) => (await client.call("receipt_verify", { line })).data, printer);
            const { data } = await client.call("receipt_verify", { id: target });
            return report(data, json, printer) ? EXIT.ok : EXIT.unverified;
          },
          file ? offlineHint : undefined,
        );
      });
  },
};
