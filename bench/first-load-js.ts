import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";

/**
 * First-load JavaScript of every page of a production build, gzipped: what a browser downloads before the page is
 * interactive. Per page that is the framework's root chunks (build-manifest.json `rootMainFiles`) plus the chunks
 * of every layout, boundary and the page itself (the `entryJSFiles` of the page's client reference manifest).
 * Polyfills are left out: modern browsers skip them (`nomodule`).
 */

export const FIRST_LOAD_BUDGET_KB = 120;

type BenchResult = { title: string; lines: string[]; figures: Record<string, number> };

type RouteSize = { route: string; files: number; rawBytes: number; gzipBytes: number };

async function findManifests(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await findManifests(full)));
    else if (entry.name === "page_client-reference-manifest.js") found.push(full);
  }
  return found;
}

/** The manifest is a script that assigns `globalThis.__RSC_MANIFEST[route]`; run it in an empty sandbox to read it. */
function readClientManifest(code: string): Record<string, { entryJSFiles?: Record<string, string[]> }> {
  const sandbox: { __RSC_MANIFEST?: Record<string, { entryJSFiles?: Record<string, string[]> }> } = {};
  runInNewContext(code, sandbox, { timeout: 1_000 });
  return sandbox.__RSC_MANIFEST ?? {};
}

export async function measureFirstLoadJs(distDir: string): Promise<RouteSize[]> {
  const buildManifestPath = path.join(distDir, "build-manifest.json");
  if (!existsSync(buildManifestPath)) throw new Error(`${buildManifestPath} not found: run a production build first`);
  const buildManifest = JSON.parse(await readFile(buildManifestPath, "utf8")) as { rootMainFiles?: string[] };
  const rootFiles = buildManifest.rootMainFiles ?? [];

  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = async (file: string) => {
    const relative = file.replace(/^\/?_next\//, "").replace(/^\//, "");
    let known = sizes.get(relative);
    if (!known) {
      const bytes = await readFile(path.join(distDir, relative));
      known = { raw: bytes.length, gzip: gzipSync(bytes).length };
      sizes.set(relative, known);
    }
    return known;
  };

  const routes: RouteSize[] = [];
  for (const manifestPath of await findManifests(path.join(distDir, "server", "app"))) {
    const manifest = readClientManifest(await readFile(manifestPath, "utf8"));
    for (const [key, value] of Object.entries(manifest)) {
      const route = key.replace(/\/page$/, "") || "/";
      if (route.startsWith("/_")) continue;
      const files = new Set(rootFiles);
      for (const chunkFiles of Object.values(value.entryJSFiles ?? {})) for (const file of chunkFiles) files.add(file);
      let rawBytes = 0;
      let gzipBytes = 0;
      for (const file of [...files].filter((name) => name.endsWith(".js"))) {
        const size = await sizeOf(file);
        rawBytes += size.raw;
        gzipBytes += size.gzip;
      }
      routes.push({ route, files: files.size, rawBytes, gzipBytes });
    }
  }
  return routes.sort((a, b) => a.route.localeCompare(b.route));
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

export async function benchFirstLoadJs(distDir: string): Promise<BenchResult> {
  const routes = await measureFirstLoadJs(distDir);
  if (routes.length === 0) throw new Error(`no page manifests under ${distDir}/server/app`);
  const figures: Record<string, number> = {};
  const lines: string[] = [];
  for (const route of routes) {
    figures[`firstLoadJsKb ${route.route}`] = kb(route.gzipBytes);
    const verdict = kb(route.gzipBytes) <= FIRST_LOAD_BUDGET_KB ? "within" : "OVER";
    lines.push(`${route.route}: ${kb(route.gzipBytes)} kB gzipped (${kb(route.rawBytes)} kB raw, ${route.files} files), ${verdict} the ${FIRST_LOAD_BUDGET_KB} kB budget`);
  }
  const largest = Math.max(...routes.map((route) => route.gzipBytes));
  figures.firstLoadJsMaxKb = kb(largest);
  lines.push(`largest page: ${kb(largest)} kB gzipped (budget ${FIRST_LOAD_BUDGET_KB} kB per page)`);
  return { title: "First-load JavaScript per page (gzipped, production build)", lines, figures };
}
