/**
 * The one list of what the container image's run stage holds: every `COPY --from=build` line of the Dockerfile is
 * written from it (`dockerCopyLines`), tests/unit/dockerfile.test.ts holds the Dockerfile to it, and
 * tests/build/runtime-tree.test.ts assembles exactly these paths into an empty folder and runs the app from there.
 * A file the image needs and this list leaves out fails that test; a COPY line changed by hand fails the unit test.
 *
 * Paths are relative to the project in the build stage (`from`) and to the image's working directory (`to`);
 * `.next` is the build's output folder (NEXT_DIST_DIR, `.next` in the image).
 */
export type ImageCopy = { from: string; to: string; why: string };

export const IMAGE_FILES: readonly ImageCopy[] = [
  // The standalone server: server.js, the built server files, the node_modules Next traced, and db/migrations
  // (next.config.ts traces them in: the embedded database, db:migrate and the doctor read them from the working
  // directory).
  { from: ".next/standalone", to: ".", why: "the web server, the packages it loads and the migrations" },
  // The browser's scripts and stylesheets: the standalone output leaves them out (a CDN may serve them instead).
  { from: ".next/static", to: ".next/static", why: "pages' scripts and stylesheets" },
  // The worker, db:migrate and doctor compiled by scripts/build-runtime.ts, run with plain `node`.
  { from: ".next/runtime", to: ".next/runtime", why: "worker, migrations and doctor commands" },
];

/** The commands the image runs, each compiled from its script (scripts/build-runtime.ts) into `.next/runtime`. */
export const RUNTIME_SCRIPTS = {
  worker: "scripts/worker.ts",
  "db-migrate": "scripts/db-migrate.ts",
  doctor: "scripts/doctor.ts",
} as const;

export const RUNTIME_DIR = "runtime";

/**
 * The run stage's copy of `copy`, as the Dockerfile writes it: from the build stage's /app, owned by root, so the
 * app's own user can read the code but not change it.
 */
export function dockerCopyLine(copy: ImageCopy): string {
  const to = copy.to === "." ? "./" : `./${copy.to}`;
  return `COPY --from=build /app/${copy.from} ${to}`;
}

export function dockerCopyLines(files: readonly ImageCopy[] = IMAGE_FILES): string[] {
  return files.map(dockerCopyLine);
}

/** A Dockerfile's instructions: continuation lines joined, whitespace normalised, comments and blanks dropped. */
function instructionsOf(dockerfile: string): string[] {
  return dockerfile
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter((line) => line && !line.startsWith("#"));
}

/** Every `COPY --from=build` line of a Dockerfile, whitespace normalised, in order. */
export function dockerfileBuildCopies(dockerfile: string): string[] {
  return instructionsOf(dockerfile).filter((line) => /^COPY --from=build\b/i.test(line));
}

/** The last stage's default command (`CMD [...]`) or its health check's (`HEALTHCHECK ... CMD [...]`), exec form. */
export function dockerfileCommand(dockerfile: string, which: "CMD" | "HEALTHCHECK"): string[] {
  const line = instructionsOf(dockerfile).findLast((instruction) => instruction.startsWith(`${which} `));
  const json = line && /(?:^|\s)CMD (\[.*\])$/.exec(line)?.[1];
  if (!json) throw new Error(`The Dockerfile has no ${which} in exec form (CMD ["…"])`);
  return JSON.parse(json) as string[];
}
