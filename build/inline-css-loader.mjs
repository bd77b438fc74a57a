/**
 * Turbopack loader for app/inline-stylesheet.ts: in a production build, compiles app/globals.css with the same
 * PostCSS plugin as postcss.config.mjs (minified) and makes the module export the CSS as a string, which the root
 * layout writes into the head of each document under the CSP nonce; with `{ link: true }` (next dev) the module imports
 * globals.css the usual way and exports an empty string.
 *
 * Why not Next's stylesheet link: a linked stylesheet blocks the first paint for a second request, a round trip on
 * a phone's network before any text shows (docs/benchmarks.md, phone pages). Why not Next's `experimental.inlineCss`:
 * in next 16.4 it writes the CSS three times per page and without the nonce, so the policy blocks it. Why a .ts module
 * and not `import … from "./globals.css?inline"`: Next turns every .css import in a server component into a
 * stylesheet link before any loader runs.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import postcss from "postcss";
import tailwindcss from "@tailwindcss/postcss";

export default function inlineCssLoader() {
  // In development the stylesheet stays Next's own import: its hot reload follows every class a change adds, which
  // a loader's output does not (Turbopack does not rebuild it when a scanned file changes).
  if (this.getOptions().link) return 'import "./globals.css";\nexport default "";\n';
  const done = this.async();
  const from = path.join(this.rootContext, "app", "globals.css");
  this.addDependency(from);
  readFile(from, "utf8")
    .then((source) => postcss([tailwindcss({ base: this.rootContext })]).process(source, { from }))
    .then((result) => {
      done(null, `export default ${JSON.stringify(result.css)};\n`);
    }, done);
}
