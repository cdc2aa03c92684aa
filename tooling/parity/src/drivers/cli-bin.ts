import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The built `cairn` binary: the CLI and stdio MCP drivers run exactly what users run. */
export const CLI_BIN = join(import.meta.dirname, "../../../../apps/cli/dist/bin.cjs");

export function requireBuiltCli(): string {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: build first (\`pnpm test\` does; or \`npx turbo run build\`).`);
  return CLI_BIN;
}

/**
 * The environment a spawned `cairn` gets: the actor's url and token and nothing of the
 * caller's CAIRN_*. CAIRN_HOME points at a directory that does not exist, so a missing
 * setting fails loudly instead of falling back to someone's credentials file.
 */
export function cliEnv(baseUrl: string, token: string): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].startsWith("CAIRN_") && e[0] !== "DATABASE_URL"),
  );
  return { ...inherited, CAIRN_URL: baseUrl, CAIRN_TOKEN: token, CAIRN_HOME: join(tmpdir(), "cairn-parity-no-home") };
}
