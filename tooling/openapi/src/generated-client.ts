import { copyFile, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ProcessResult, runNode } from "@cairn/core/testing";

const require = createRequire(import.meta.url);
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const CLIENT_SOURCE = join(PACKAGE_DIR, "client", "round-trip.ts");

/** The generator's command line and the TypeScript compiler it needs (5.x: openapi-typescript 7 needs its JS API). */
const GENERATOR_BIN = join(dirname(require.resolve("openapi-typescript/package.json")), "bin", "cli.js");
const TYPESCRIPT_DIR = dirname(require.resolve("typescript/package.json"));
const TSC_BIN = join(TYPESCRIPT_DIR, "bin", "tsc");

export async function typescriptVersion(): Promise<string> {
  return (JSON.parse(await readFile(join(TYPESCRIPT_DIR, "package.json"), "utf8")) as { version: string }).version;
}

/** The compiler settings of a strict, current Node project, as an integrator would have. */
const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2023"],
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    outDir: ".",
    rootDir: ".",
  },
  files: ["cairn-api.ts", "round-trip.ts"],
};

export interface GeneratedClient {
  dir: string;
  /** What each step printed, for a failure message. */
  generate: ProcessResult;
  compile: ProcessResult;
  run(env: Record<string, string>): Promise<ProcessResult>;
  dispose(): Promise<void>;
}

function checked(step: string, result: ProcessResult): ProcessResult {
  if (result.code !== 0) throw new Error(`${step} failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/**
 * What an integrator does with a server's document: `openapi-typescript URL` writes the
 * types, `tsc` compiles the client program against them, `node` runs it. The work
 * directory links this package's node_modules, where the program finds openapi-fetch
 * and the compiler finds @types/node.
 */
export async function generateClient(documentUrl: string): Promise<GeneratedClient> {
  const dir = await mkdtemp(join(tmpdir(), "cairn-generated-client-"));
  const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1" };
  try {
    const generate = checked("openapi-typescript", await runNode([GENERATOR_BIN, documentUrl, "-o", join(dir, "cairn-api.ts")], { env }));
    await symlink(join(PACKAGE_DIR, "node_modules"), join(dir, "node_modules"), "dir");
    await copyFile(CLIENT_SOURCE, join(dir, "round-trip.ts"));
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
    const compile = checked("tsc (the generated types and the client program)", await runNode([TSC_BIN, "-p", join(dir, "tsconfig.json")], { env }));
    return {
      dir,
      generate,
      compile,
      run: (programEnv) => runNode([join(dir, "round-trip.js")], { env: { ...env, ...programEnv }, cwd: dir }),
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
