import { existsSync } from "node:fs";
import path from "node:path";

/**
 * Tailwind scans the project's files from the repository's root, as for the app's own build (postcss.config.mjs):
 * the reference's copy of app/globals.css then holds the same rules and has the same size. The root is found from
 * the working folder (Turbopack evaluates this file bundled, without import.meta.dirname).
 */
function repositoryRoot() {
  for (let folder = process.cwd(); ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, "tooling", "bench", "reference", "postcss.config.mjs"))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`tooling/bench/reference/postcss.config.mjs: no repository above ${process.cwd()}`);
  }
}

const config = { plugins: { "@tailwindcss/postcss": { base: repositoryRoot() } } };

export default config;
