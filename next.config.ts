import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const nextConfig: NextConfig = {
  // `NEXT_OUTPUT=standalone npm run build` writes a self-contained server (.next/standalone) for containers and
  // bare Node hosts; left off by default because `next start` (npm start) does not serve a standalone build.
  output: process.env.NEXT_OUTPUT === "standalone" ? "standalone" : undefined,
  // PGlite ships a wasm build of PostgreSQL; bundling it copies the wasm into static media and breaks at run time.
  // pg-boss and its node-postgres pool run as plain Node modules (pg has optional native parts a bundler trips on).
  // The ORM and its driver, the metrics library, zod and the tracing API are server-only plain Node packages too:
  // bundled, `next dev` compiled them again for the instrumentation, the proxy and each page's server graph (zod
  // alone some 90 modules a graph, the ORM as many), all before a fresh clone's first page; Node loads them as they
  // are, once per process. (The tracing API keeps one instance per process this way, as it expects.)
  serverExternalPackages: ["@electric-sql/pglite", "pg-boss", "pg", "drizzle-orm", "postgres", "prom-client", "zod", "@opentelemetry/api"],
  poweredByHeader: false,
  // `npm test` checks the types (tsc after `next typegen`) before it builds, and sets SKIP_BUILD_TYPECHECK=1 so the
  // build does not check them again. Every other build, `npm run build` and a deploy's included, checks them.
  typescript: { ignoreBuildErrors: process.env.SKIP_BUILD_TYPECHECK === "1" },
  // The app migrates an embedded database at start and `npm run doctor` compares against the journal: ship the
  // migrations with the standalone server.
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*"] },
  // Every answer, including those proxy.ts skips (webhooks, static files, robots.txt, favicon.ico) and their
  // not-found pages: no content sniffing, no framing. proxy.ts sets the same values on the pages it handles (with
  // the CSP, whose frame-ancestors says the same), so the two never disagree.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
  // Test runs build into their own folder so a running `npm run dev` and `npm test` never share one.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

// next-intl reads its per-request configuration (locale, messages, time zone) from i18n/request.ts.
const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

export default withNextIntl(nextConfig);
