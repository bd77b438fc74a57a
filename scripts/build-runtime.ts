/**
 * The second half of `npm run build` (after `next build`): compiles the worker, `db:migrate` and the doctor into
 * `.next/runtime/*.mjs` (NEXT_DIST_DIR when set), so a container or a bare Node host runs them with plain `node`,
 * without tsx or any other devDependency:
 *
 *   node .next/runtime/db-migrate.mjs && node .next/runtime/doctor.mjs   # the release step
 *   node .next/runtime/worker.mjs                                        # the job worker
 *
 * Each is one file with its packages inside, compiled under the `react-server` condition as `npm run worker` runs
 * them through tsx (so `server-only` imports resolve to nothing). Left outside: PGlite, which loads its wasm and
 * data files from its own folder, and pg's optional native binding; the standalone output's node_modules, or the
 * project's own, holds PGlite. They run from the project's (or the image's) folder: the migrations are read from
 * `db/migrations` under the working directory.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { RUNTIME_DIR, RUNTIME_SCRIPTS } from "./support/image-files";

const root = path.resolve(import.meta.dirname, "..");
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
const outdir = path.join(root, distDir, RUNTIME_DIR);

/** Packages the bundles import at run time instead of holding: each must be among the production dependencies. */
const RUNTIME_EXTERNALS = ["@electric-sql/pglite", "pg-native"];

async function main(): Promise<void> {
  const started = Date.now();
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(RUNTIME_SCRIPTS).map(([name, source]) => [name, path.join(root, source)])),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    // The three share most of their code (the database, the environment, the job engine): chunks hold it once.
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node22",
    conditions: ["react-server", "module"],
    external: RUNTIME_EXTERNALS,
    // Packages written as CommonJS call require() for Node's built-ins; an ES module has none of its own.
    banner: { js: 'import { createRequire as __runtimeRequire } from "node:module"; const require = __runtimeRequire(import.meta.url);' },
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
  });
  const outputs = Object.values(result.metafile.outputs);
  const kB = Math.round(outputs.reduce((total, output) => total + output.bytes, 0) / 1024);
  console.log(
    `✓ Compiled ${Object.keys(RUNTIME_SCRIPTS).join(", ")} into ${path.relative(root, outdir)} (${outputs.length} files, ${kB} kB) in ${Date.now() - started} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(`✗ Compiling the runtime commands failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
