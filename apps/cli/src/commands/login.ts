import { rm } from "node:fs/promises";
import { readCredentials, replaceCredentials, resolveSettings } from "@cairn/core/local";
import type { Command } from "commander";
import { sameServer } from "../client/connection.js";
import { CairnClient, clientLimitsFrom } from "../client/http.js";
import { EXIT } from "../exit-codes.js";
import { CliFailure } from "../failure.js";
import { printerFor } from "../output.js";
import { examplesHelp } from "./define.js";
import { type CommandContext, fail } from "./run.js";

const LOGIN_EXAMPLES = [
  "cairn login --url https://cairn.example.com",
  'printf %s "$TOKEN" | cairn login --url https://cairn.example.com --token-stdin',
  "cairn logout",
];

/** Longer than any token this server issues; stdin beyond it is not a token. */
const MAX_TOKEN_INPUT = 4096;

async function readAll(stdin: AsyncIterable<Uint8Array | string>): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    if (text.length > MAX_TOKEN_INPUT) throw CliFailure.usage("standard input is longer than any Cairn token; nothing was written.");
  }
  return text;
}

function checkedUrl(raw: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = undefined;
  }
  // A user name or password in the URL would be stored in the credentials file and echoed in messages.
  if (parsed && (parsed.username !== "" || parsed.password !== "")) {
    throw CliFailure.usage(
      "--url must not carry a user name or password (user:password@host): Cairn signs in with a token, given at the prompt or with --token-stdin. Nothing was written.",
    );
  }
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") {
    throw CliFailure.usage(`--url must be an http(s) URL such as https://cairn.example.com (got ${JSON.stringify(raw)}).`);
  }
  return raw.replace(/\/+$/, "");
}

/** What login reads of `/v1/me`: a user's name and the token's name and kind, as strings. */
function isMe(value: unknown): value is { user: { name: string }; token: { name: string; kind: string } } {
  const v = value as { user?: { name?: unknown }; token?: { name?: unknown; kind?: unknown } } | null;
  return typeof v?.user?.name === "string" && typeof v.token?.name === "string" && typeof v.token.kind === "string";
}

/**
 * `cairn login`: the token (a hidden prompt, or --token-stdin) is checked against
 * /v1/me on the server before anything is written, so a wrong token or an unreachable
 * URL leaves the credentials file as it was. A file that held another token is kept
 * beside it as `credentials.previous`, since `cairn serve`'s admin token has no other copy.
 */
async function login(ctx: CommandContext, opts: { url?: string; tokenStdin?: boolean }): Promise<void> {
  const env = ctx.io.env;
  const settings = resolveSettings(env);
  const existing = await readCredentials(settings.credentialsPath).catch(() => null);
  const url = checkedUrl(opts.url ?? env.CAIRN_URL ?? existing?.url ?? settings.serverUrl);
  let entered: string;
  if (opts.tokenStdin) entered = await readAll(ctx.io.stdin);
  else if (ctx.io.stdinIsTty && ctx.io.readSecret) {
    entered = await ctx.io.readSecret(`Token for ${url} (input hidden): `).catch((err: Error) => {
      throw CliFailure.usage(err.message);
    });
  } else throw CliFailure.usage("no terminal to ask for the token on: pipe it in with --token-stdin. Nothing was written.");
  const token = entered.trim();
  if (token === "") throw CliFailure.usage("no token given; nothing was written.");

  const client = new CairnClient({ url, token, tokenSource: "the token you gave" }, ctx.version, ctx.fetch, clientLimitsFrom(env));
  let me: Awaited<ReturnType<typeof client.call<"me">>>["data"];
  try {
    me = (await client.call("me", {})).data;
  } catch (err) {
    if (!(err instanceof CliFailure)) throw err;
    const why = err.exitCode === EXIT.auth ? `${url} refused that token (${err.error?.code ?? "unauthenticated"})` : err.message;
    throw new CliFailure(err.exitCode, `${why.replace(/\.$/, "")}. Nothing was written.`);
  }
  // The answer's shape is checked before anything is written: a server that is not Cairn (or a proxy's `{}`) writes nothing.
  if (!isMe(me)) {
    throw new CliFailure(EXIT.server, `unexpected answer from ${url}: /v1/me did not name a user and a token. Is --url a Cairn server? Nothing was written.`);
  }
  const kept = await replaceCredentials(settings.credentialsPath, { url, token });
  const printer = printerFor(ctx.io, false);
  printer.out(`Signed in to ${url} as ${me.user.name} with token "${me.token.name}" (${me.token.kind}).`);
  printer.err(`Credentials: ${settings.credentialsPath} (mode 0600).`);
  if (kept) printer.err(`The token it held before is kept in ${kept}.`);
  if (env.CAIRN_TOKEN) printer.err("Note: CAIRN_TOKEN is set and wins over the credentials file while it is.");
  if (env.CAIRN_URL && !sameServer(env.CAIRN_URL, url)) printer.err(`Note: CAIRN_URL points at ${env.CAIRN_URL}, so commands go there, not to ${url}.`);
}

/** `cairn logout`: removes the credentials file. The token itself stays valid until revoked. */
async function logout(ctx: CommandContext): Promise<void> {
  const settings = resolveSettings(ctx.io.env);
  const existing = await readCredentials(settings.credentialsPath).catch(() => undefined);
  const printer = printerFor(ctx.io, false);
  if (existing === null) {
    printer.err(`Not signed in: there is no ${settings.credentialsPath}.`);
    return;
  }
  await rm(settings.credentialsPath, { force: true });
  printer.out(`Removed ${settings.credentialsPath}${existing ? ` (the token for ${existing.url})` : ""}.`);
  printer.err("The token itself still works until it is revoked (`cairn token list`, `cairn token revoke ID`).");
}

export const LOCAL_COMMANDS = {
  login: "Sign the CLI in to a server: checks a token against it, then writes $CAIRN_HOME/credentials (mode 0600).",
  logout: "Remove $CAIRN_HOME/credentials.",
} as const;

/** The commands that need no server connection of their own: `login` and `logout`. */
export function registerLocalCommands(program: Command, ctx: CommandContext): void {
  program
    .command("login")
    .description(LOCAL_COMMANDS.login)
    .option("--url <url>", "The server (default: CAIRN_URL, else the credentials file's url, else http://127.0.0.1:7373).")
    .option("--token-stdin", "Read the token from standard input instead of a hidden prompt.")
    .addHelpText("after", examplesHelp(LOGIN_EXAMPLES))
    .action(async (opts: { url?: string; tokenStdin?: boolean }) => {
      try {
        await login(ctx, opts);
      } catch (err) {
        fail(ctx, err, false);
      }
    });
  program
    .command("logout")
    .description(LOCAL_COMMANDS.logout)
    .action(async () => {
      try {
        await logout(ctx);
      } catch (err) {
        fail(ctx, err, false);
      }
    });
}
