// `prepack` of the CLI (docs/adr/0037): what `pnpm pack` puts in the tarball `npm install -g`
// turns into a working `cairn`. The built CLI (dist/cli.js and its chunks) imports our
// packages and their libraries from node_modules; here it is bundled again with all of
// them inside, so the tarball needs no workspace. Only PGlite stays a dependency: it loads
// its WebAssembly and data files from beside its own modules. The binary and the quick path
// (dist/bin.cjs, dist/quick.cjs: CommonJS, docs/adr/0070) need nothing but Node's own modules
// and are copied as built.
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OUT = join(ROOT, "pack");
const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
/** What the tarball installs: the only packages left as imports. */
const KEPT = Object.keys(manifest.dependencies ?? {});
/** Optional native bindings a bundled library asks for only when asked to use them (pg's `pg.native`). */
const NEVER_LOADED = ["pg-native"];

/**
 * A bundle gives a dynamically imported CommonJS module only a default export, where Node
 * gives its named exports too (`const { parseDocument } = await import("yaml")`). yaml
 * ships the same code as ES modules; the bundle takes those.
 */
const esmBuilds = {
  name: "esm-builds",
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, async (args) => {
      const cjs = await b.resolve("yaml/package.json", { kind: args.kind, resolveDir: args.resolveDir });
      return { path: join(dirname(cjs.path), "browser", "index.js") };
    });
  },
};

/** Copied as built: they load only Node's own modules and the files beside them. */
const AS_BUILT = ["bin.cjs", "quick.cjs"];
for (const name of AS_BUILT) {
  if (!existsSync(join(ROOT, "dist", name))) throw new Error(`dist/${name} is missing: run \`pnpm build\` before packing.`);
}

const result = await build({
  // metadata.js is what quick.cjs imports for an operation without a named route.
  entryPoints: [join(ROOT, "dist", "cli.js"), join(ROOT, "dist", "metadata.js")],
  bundle: true,
  splitting: true,
  write: false,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: OUT,
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  external: [...KEPT, ...NEVER_LOADED],
  plugins: [esmBuilds],
  // Bundled CommonJS libraries call require() for node's own modules; an ES module has none of its own.
  banner: { js: 'import { createRequire as __cairnCreateRequire } from "node:module"; const require = __cairnCreateRequire(import.meta.url);' },
  legalComments: "linked",
  logLevel: "warning",
  metafile: true,
});

const foreign = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path, external } of output.imports) {
    const pkg = path.startsWith("@") ? path.split("/").slice(0, 2).join("/") : path.split("/")[0];
    if (external && !path.startsWith("node:") && !builtinModules.includes(path) && !KEPT.includes(pkg) && !NEVER_LOADED.includes(pkg)) foreign.add(path);
  }
}
if (foreign.size > 0) throw new Error(`the packed binary would import ${[...foreign].join(", ")}, which the tarball does not install.`);

const builtRequires = AS_BUILT.flatMap((name) =>
  [...readFileSync(join(ROOT, "dist", name), "utf8").matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]),
).filter((id) => !id.startsWith("node:") && !builtinModules.includes(id) && !AS_BUILT.includes(id.replace(/^\.\//, "")));
if (builtRequires.length > 0) throw new Error(`dist/bin.cjs or dist/quick.cjs requires ${builtRequires.join(", ")}, which the tarball does not carry.`);

await rm(OUT, { recursive: true, force: true });
for (const file of result.outputFiles) {
  await mkdir(dirname(file.path), { recursive: true });
  await writeFile(file.path, file.contents);
}
for (const name of AS_BUILT) await copyFile(join(ROOT, "dist", name), join(OUT, name));
const size = result.outputFiles.reduce((n, f) => n + f.contents.byteLength, 0);
console.log(`pack/: ${result.outputFiles.length} files, ${(size / 1e6).toFixed(1)} MB; installs ${KEPT.join(", ") || "nothing"}`);
