# One image for the web server, the job worker, the migrations and the doctor (docs/deploy.md, "Container host"):
#
#   docker build -t store-app .
#   docker run --rm --env-file prod.env store-app node .next/runtime/db-migrate.mjs   # release step, then:
#   docker run --rm --env-file prod.env store-app node .next/runtime/doctor.mjs
#   docker run -d --env-file prod.env -e JOBS_WORKER=off -p 3000:3000 store-app      # web
#   docker run -d --env-file prod.env store-app node .next/runtime/worker.mjs         # worker
#
# The run stage's COPY lines are written from scripts/support/image-files.ts, the list tests/build/runtime-tree.test.ts
# assembles and runs (no Docker engine needed); tests/unit/dockerfile.test.ts fails when they differ. db/migrations
# comes with the standalone output (next.config.ts traces it in).
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
# `npm run build`: next build (standalone server), then the worker, db:migrate and doctor compiled into .next/runtime.
RUN NEXT_OUTPUT=standalone npm run build

FROM ${NODE_IMAGE} AS run
WORKDIR /app
# HOSTNAME: the standalone server binds to it, and Docker sets it to the container's id.
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
RUN groupadd --system --gid 1001 app && useradd --system --uid 1001 --gid app --no-create-home app
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/.next/runtime ./.next/runtime
# The code belongs to root (the app's user reads it, cannot change it); these are the only folders it writes:
# Next's cache and, when DATABASE_URL is unset, the embedded database (a single container with a volume there).
RUN mkdir -p .next/cache .data && chown app:app .next/cache .data
USER app
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
