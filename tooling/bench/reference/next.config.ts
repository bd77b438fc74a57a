import path from "node:path";
import type { NextConfig } from "next";

/**
 * The bench's reference app: an empty App Router app on the project's own next, react and postgres (resolved from
 * the project's node_modules), built into its own folder so it never mixes with the app's build.
 */
const nextConfig: NextConfig = {
  distDir: process.env.NEXT_DIST_DIR ?? ".next-bench",
  poweredByHeader: false,
  // The project's tsc checks these files; the reference build skips its own check to keep the bench short.
  typescript: { ignoreBuildErrors: true },
  turbopack: { root: path.join(import.meta.dirname, "..", "..", "..") },
};

export default nextConfig;
