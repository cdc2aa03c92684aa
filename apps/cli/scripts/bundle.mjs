// The second half of the CLI's `pnpm build`, after tsc (docs/adr/0025). It makes the
// `cairn` binary start like a small program instead of loading the packages it fronts:
//   dist/table.js   core's metadata the commands are spelled from (liveTable() in src/metadata.ts)
//   dist/light.js   core's view models and limits (src/light.ts), bundled without core's schemas
//   dist/bin.cjs    the binary (CommonJS): requires dist/quick.cjs for `cairn read ID` (one
//                   file, src/quick.ts) and imports dist/cli.js for any other command line
//   dist/cli.js     its own modules, commander and the light packages, the rest (serve,
//                   --dry-run, ...) in dist/chunks/, loaded when used
// The other tsc outputs stay as they are: they are what `import "@cairn/cli"` loads.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { build } from "esbuild";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const dist = (name) => join(DIST, name);

async function writeTable() {
  const { liveTable } = await import(pathToFileURL(dist("metadata.js")).href);
  const table = await liveTable();
  await writeFile(
    dist("table.js"),
    `// Written by scripts/bundle.mjs from core's registry; see src/table.ts.\nexport const TABLE = ${JSON.stringify(table, null, 1)};\n`,
  );
}

/** Our own packages' compiled modules (a path in either separator). */
const OURS = /[\\/](packages|apps)[\\/][^\\/]+[\\/]dist[\\/]/;
const IMPORTS_ZOD = /\bfrom\s*["']zod(\/[^"']*)?["']/;
const SCHEMA_ONLY = "cairn-light:schema-only";

/** A value that is its own JSON: a constant the bundle can hold as a literal. */
const isPlainData = (value) => {
  try {
    return value !== undefined && isDeepStrictEqual(JSON.parse(JSON.stringify(value)), value);
  } catch {
    return false;
  }
};

/**
 * Our modules enter the light bundle as free of side effects, so only what src/light.ts
 * names is kept. A module that defines schemas (it imports zod) enters as its plain-data
 * exports only, read from the real module now; every other export becomes a marker. The
 * bundle must not use a marker (checked below), so it holds the packages' own code and
 * constants, never a stand-in, and zod is never loaded.
 */
const schemaModulesAsConstants = {
  name: "schema-modules-as-constants",
  setup(b) {
    b.onResolve({ filter: /^cairn-light:/ }, (args) => ({ path: args.path, namespace: "cairn-light" }));
    b.onLoad({ filter: /.*/, namespace: "cairn-light" }, () => ({
      contents: 'export function schemaOnly(name) { throw new Error("light bundle: " + name + " is not plain data"); }',
      loader: "js",
    }));
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.resolving || args.kind === "entry-point" || args.path.startsWith("node:")) return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { resolving: true } });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      // Anything else stays an import; the check below fails the build if one is left.
      if (!OURS.test(resolved.path)) return { path: args.path, external: true, sideEffects: false };
      return { path: resolved.path, sideEffects: false };
    });
    b.onLoad({ filter: OURS }, async (args) => {
      if (!IMPORTS_ZOD.test(await readFile(args.path, "utf8"))) return undefined;
      const real = await import(pathToFileURL(args.path).href);
      const lines = [`import { schemaOnly } from ${JSON.stringify(SCHEMA_ONLY)};`];
      for (const [name, value] of Object.entries(real)) {
        lines.push(
          isPlainData(value)
            ? `export const ${name} = ${JSON.stringify(value)};`
            : `export const ${name} = /* @__PURE__ */ schemaOnly(${JSON.stringify(name)});`,
        );
      }
      return { contents: lines.join("\n"), loader: "js" };
    });
  },
};

const importsOf = (code) =>
  [...code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  );

async function writeLight() {
  const result = await build({
    entryPoints: [dist("light.js")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    target: "node20",
    legalComments: "none",
    plugins: [schemaModulesAsConstants],
    logLevel: "silent",
  });
  const code = result.outputFiles[0].text;
  const problems = [];
  const standIns = [...new Set([...code.matchAll(/schemaOnly\("([^"]+)"\)/g)].map((m) => m[1]))];
  if (standIns.length > 0) problems.push(`it uses ${standIns.join(", ")}, which a schema module exports and is not plain data`);
  const foreign = importsOf(code).filter((specifier) => !specifier.startsWith("node:"));
  if (foreign.length > 0) problems.push(`it imports ${foreign.join(", ")}`);
  if (problems.length > 0) {
    throw new Error(`dist/light.js cannot be bundled light: ${problems.join("; ")}. Export from src/light.ts only functions of plain data.`);
  }
  await writeFile(dist("light.js"), `// Bundled by scripts/bundle.mjs from src/light.ts.\n${code}`);
}

/**
 * Packages the binary carries inside itself: small, plain code every client command runs.
 * Everything else (core, the REST and MCP packages, yaml, ...) stays an import, resolved
 * from node_modules when a command needs it, so `cairn serve` runs the packages as built.
 */
const CARRIED = new Set(["commander", "@cairn/core/json", "@cairn/core/local", "@cairn/rest/routes"]);

const carriedPackages = {
  name: "carried-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || CARRIED.has(args.path) || /[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** What the stand-in dist/bin.js says of itself (written last, below). */
const BIN_JS_STANDS_IN = "Stands in for the binary, now dist/bin.cjs, where a command line names dist/bin.js";

const common = { bundle: true, write: false, format: "esm", platform: "node", target: "node20", legalComments: "none", logLevel: "silent" };

/** dist/cli.js and dist/chunks/: every command line but the quick ones, loaded by bin.cjs when needed. */
async function buildCli() {
  const result = await build({
    ...common,
    entryPoints: [dist("cli.js")],
    splitting: true,
    outdir: DIST,
    entryNames: "[name]",
    chunkNames: "chunks/[name]-[hash]",
    plugins: [carriedPackages],
  });
  return result.outputFiles;
}

/**
 * dist/bin.cjs, which only picks a path, and dist/quick.cjs: one file with what `cairn read ID`
 * runs (src/quick.ts), so that command compiles one module and nothing it does not use
 * (docs/adr/0067). Both are CommonJS, so that command never starts Node's ES module loader
 * (docs/adr/0070): bin.cjs `require`s quick.cjs, and quick.cjs takes the Node modules it
 * loads late from `process.getBuiltinModule`, never `import()`. The rest of the CLI stays ES
 * modules, loaded by `import()`. Their loads of our own modules (quick.cjs, cli.js, the
 * operations table) stay loads of the files beside them. quick.cjs shares no live objects
 * with cli.js, only plain data and functions, so the two copies of small modules
 * (transport, output) cannot disagree.
 */
async function buildBin() {
  if ((await readFile(dist("bin.js"), "utf8")).includes(BIN_JS_STANDS_IN))
    throw new Error("dist/bin.js is the stand-in, not tsc's output: run `pnpm build`, which runs tsc first.");
  const result = await build({
    ...common,
    format: "cjs",
    entryPoints: [dist("bin.js"), dist("quick.js")],
    outdir: DIST,
    entryNames: "[name]",
    outExtension: { ".js": ".cjs" },
    plugins: [
      carriedPackages,
      {
        name: "own-modules-loaded-later",
        setup(b) {
          b.onResolve({ filter: /^\./ }, (args) => {
            const later = args.kind === "dynamic-import" || (args.kind === "require-call" && args.path.endsWith(".cjs"));
            if (!later) return undefined;
            const target = relative(DIST, join(args.resolveDir, args.path)).split(sep).join("/");
            return { path: `./${target}`, external: true };
          });
        },
      },
    ],
  });
  const text = (name) => result.outputFiles.find((f) => f.path === dist(name)).text;
  const bin = text("bin.cjs");
  const loads = [...bin.matchAll(/\b(?:import|require)\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) => m[1]);
  if (!/\brequire\(\s*["']\.\/quick\.cjs["']\s*\)/.test(bin) || !/\bimport\(\s*["']\.\/cli\.js["']\s*\)/.test(bin) || loads.length !== 2) {
    throw new Error("dist/bin.cjs must require ./quick.cjs and import ./cli.js when used, and nothing else of ours: the quick path's split is broken.");
  }
  // An import() of a module Node holds would start the ES module loader on the quick path.
  const builtinImports = [...text("quick.cjs").matchAll(/\bimport\(\s*["'](node:[^"']+)["']\s*\)/g)].map((m) => m[1]);
  if (builtinImports.length > 0) throw new Error(`dist/quick.cjs imports ${builtinImports.join(", ")}: take Node's modules with process.getBuiltinModule.`);
  return result.outputFiles;
}

async function writeBin() {
  const files = [...(await buildCli()), ...(await buildBin())];
  await rm(dist("chunks"), { recursive: true, force: true });
  for (const file of files) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.contents);
  }
}

await writeTable();
await writeLight();
await writeBin();
// tsc's source maps describe the files these replaced.
await Promise.all(["table.js.map", "light.js.map", "bin.js.map", "cli.js.map"].map((name) => rm(dist(name), { force: true })));
// tsc's bin.js became bin.cjs. MCP host configurations written before that run
// `node …/dist/bin.js mcp`: in its place, a file that runs the binary (docs/adr/0070).
await writeFile(dist("bin.js"), `#!/usr/bin/env node\n// ${BIN_JS_STANDS_IN} (docs/adr/0070): it runs dist/bin.cjs.\nimport "./bin.cjs";\n`);
