#!/usr/bin/env node
// `pnpm cairn …`: brings the build up to date without a word, then runs the built CLI
// from the directory the user typed the command in (pnpm runs scripts from the
// repository root and passes the original directory as INIT_CWD), so `--from ../r.yaml`
// means what it says. Only Cairn's own output reaches the terminal; a failed build
// prints turbo's errors and exits 1.
import { spawn, spawnSync } from "node:child_process";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };

const build = spawnSync(join(root, "node_modules", ".bin", "turbo"), ["run", "build", "--output-logs=errors-only"], {
  cwd: root,
  env,
  encoding: "utf8",
});
if (build.status !== 0) {
  process.stderr.write(build.stdout ?? "");
  process.stderr.write(build.stderr ?? "");
  process.stderr.write(`cairn: the build failed (${build.error?.message ?? `exit ${build.status}`}); see above.\n`);
  process.exit(1);
}

const cli = spawn(process.execPath, [join(root, "apps", "cli", "dist", "bin.cjs"), ...process.argv.slice(2)], {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: pnpm's, read by this launcher only, never by a turbo task
  cwd: process.env.INIT_CWD ?? process.cwd(),
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => cli.kill(signal));
cli.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 1)));
