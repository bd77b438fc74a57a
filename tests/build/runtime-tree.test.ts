import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase } from "@/db/scratch";
import { DEV_APP } from "@/lib/dev-app";
import { PAGE_SCOPES } from "@/lib/sections";
import { freePort } from "@/scripts/support/free-port";
import { dockerCopyLines, dockerfileBuildCopies, dockerfileCommand, IMAGE_FILES, RUNTIME_DIR } from "@/scripts/support/image-files";
import { stopGroup, until, type Watched } from "@/tests/e2e/support/processes";

/**
 * The container image without a Docker engine: a production build (`npm run build` with the standalone output, as
 * the Dockerfile's build stage runs it), then exactly what the Dockerfile's run stage copies (scripts/support/
 * image-files.ts, the list its COPY lines are held to) assembled into an empty folder outside the project, so no
 * node_modules but the copied one can be reached. From there, with plain `node` and against PostgreSQL and the
 * emulator over HTTP: the release step (migrations, doctor), the web server and the job worker as two processes; a
 * merchant installs through the consent screen, the store's import completes (worked by the worker: the web runs
 * with JOBS_WORKER=off) and a signed webhook is stored. A file the image needs and the list leaves out fails here.
 *
 * Needs TEST_DATABASE_URL (the worker runs only on PostgreSQL). Part of `npm run test:bundlers` (a build of its own,
 * minutes on two cores). RUNTIME_TREE_REUSE_BUILD=1 reuses an earlier build of this test's folder.
 */

const root = path.resolve(import.meta.dirname, "../..");
const DIST = ".next-runtime-tree";
const SERVER_URL = process.env.TEST_DATABASE_URL;

/** A path of the image list in this test's build: `.next` is the build folder, DIST here. */
const inBuild = (file: string) => (file === ".next" || file.startsWith(".next/") ? `${DIST}${file.slice(".next".length)}` : file);

/**
 * Packages the lock installs for development only that Next's trace still copies into the standalone output, each
 * with the reason (a production-only install, `npm ci --omit=dev`, has none of them). A package that leaves the
 * trace must leave this list too.
 */
const TRACED_DEV_PACKAGES: Record<string, string> = {
  ws: "PGlite's emscripten code requires it behind a guard, for sockets the app never opens; a devDependency installs it",
};

type Started = Watched & { name: string };
type Env = Record<string, string | undefined>;

/** A command in `cwd` with its output collected, in a process group of its own (stopGroup ends all of it). */
function start(name: string, command: string, args: string[], options: { cwd: string; env: Env }): Started {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { name, child, output: () => output, exited };
}

/** A command run to its end: its exit code and output. */
async function runToEnd(name: string, command: string, args: string[], options: { cwd: string; env: Env }) {
  const started = start(name, command, args, options);
  const code = await started.exited;
  return { code, output: started.output() };
}

/** Every package folder under a node_modules folder (scoped ones as @scope/name). */
async function packagesIn(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const names: string[] = [];
  for (const entry of await readdir(folder)) {
    if (entry.startsWith(".")) continue;
    if (entry.startsWith("@")) names.push(...(await readdir(path.join(folder, entry))).map((name) => `${entry}/${name}`));
    else names.push(entry);
  }
  return names;
}

describe.skipIf(!SERVER_URL)("the container image's files, assembled and run outside the project", () => {
  let tree = "";
  let scratch: ScratchDatabase | null = null;
  let sql: postgres.Sql | null = null;
  let emulator: Started | null = null;
  let web: Started | null = null;
  let worker: Started | null = null;
  let appUrl = "";
  let emulatorUrl = "";
  let treeEnv: Env = {};
  let dockerfile = "";
  const processes = () => [emulator, web, worker].filter((one): one is Started => one !== null);
  const outputs = () => processes().map((one) => `── ${one.name} ──\n${one.output().slice(-4000)}`).join("\n");

  beforeAll(async () => {
    if (process.env.RUNTIME_TREE_REUSE_BUILD !== "1" || !existsSync(path.join(root, DIST, RUNTIME_DIR))) {
      const build = await runToEnd("build", "npm", ["run", "build"], {
        cwd: root,
        env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_OUTPUT: "standalone", NEXT_DIST_DIR: DIST, SKIP_BUILD_TYPECHECK: "1" },
      });
      expect(build.code, build.output).toBe(0);
    }

    // What the Dockerfile copies is the list (tests/unit/dockerfile.test.ts says the same without a build).
    dockerfile = await readFile(path.join(root, "Dockerfile"), "utf8");
    expect(dockerfileBuildCopies(dockerfile)).toEqual(dockerCopyLines());
    tree = await mkdtemp(path.join(tmpdir(), "runtime-tree-"));
    // Node looks for packages in every parent folder: none may hold a node_modules this test did not copy.
    for (let folder = path.dirname(tree); ; folder = path.dirname(folder)) {
      expect(existsSync(path.join(folder, "node_modules")), `${folder}/node_modules would be reachable`).toBe(false);
      if (path.dirname(folder) === folder) break;
    }
    for (const copy of IMAGE_FILES) {
      const target = path.join(tree, inBuild(copy.to));
      await mkdir(path.dirname(target), { recursive: true });
      // As COPY does: a folder's contents into the target, symbolic links kept as links.
      await cp(path.join(root, inBuild(copy.from)), target, { recursive: true, verbatimSymlinks: true });
    }

    const port = await freePort();
    const emulatorPort = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
    scratch = await createScratchDatabase(SERVER_URL!, "runtime_tree");
    sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
    // The production environment the image runs with, and nothing from this process (no NODE_PATH, no .env).
    treeEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      APP_URL: appUrl,
      SVC_AUTH_URL: emulatorUrl,
      SVC_API_URL: emulatorUrl,
      SVC_CLIENT_ID: DEV_APP.clientId,
      SVC_CLIENT_SECRET: DEV_APP.clientSecret,
      SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret,
      SVC_SCOPES: PAGE_SCOPES.join(" "),
      SESSION_SECRET: randomBytes(32).toString("base64"),
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      CRON_SECRET: randomBytes(24).toString("hex"),
      DATABASE_URL: scratch.url,
      LOG_LEVEL: "info",
    };
    emulator = start("emulator", "npx", ["tsx", "emulator/src/cli.ts", "start", "--port", String(emulatorPort), "--app-url", appUrl, "--memory", "--no-auto-tick"], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    const running = emulator;
    const up = await until(async () => running.child.exitCode !== null || (await fetch(`${emulatorUrl}/_emulator/clock`).catch(() => null))?.ok === true, 60_000);
    expect(up && running.child.exitCode === null, running.output()).toBe(true);
  }, 1_200_000);

  afterAll(async () => {
    await Promise.all(processes().map((one) => stopGroup(one)));
    await sql?.end();
    await scratch?.drop();
    if (tree) await rm(tree, { recursive: true, force: true });
  });

  it("holds production packages only: no devDependency, no tsx or esbuild", async () => {
    const lock = JSON.parse(await readFile(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean }> };
    const packages = await packagesIn(path.join(tree, "node_modules"));
    expect(packages).toEqual(expect.arrayContaining(["next", "@electric-sql/pglite"]));
    const devOnly = packages.filter((name) => lock.packages[`node_modules/${name}`]?.dev === true);
    expect(devOnly).toEqual(Object.keys(TRACED_DEV_PACKAGES).filter((name) => packages.includes(name)));
    for (const tool of ["tsx", "esbuild", "typescript", "vitest", "drizzle-kit"]) expect(packages).not.toContain(tool);
  });

  it("holds every migration the project has, where the commands read them (the working directory's db/migrations)", async () => {
    const files = async (folder: string) => (await readdir(folder, { recursive: true })).map(String).sort();
    const shipped = await files(path.join(root, "db/migrations"));
    expect(shipped).toContain(path.join("meta", "_journal.json"));
    expect(await files(path.join(tree, "db/migrations"))).toEqual(shipped);
  });

  it("migrates the database and passes the doctor, platform calls included (the release step)", async () => {
    const journal = JSON.parse(await readFile(path.join(root, "db/migrations/meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
    const migrate = await runToEnd("db:migrate", "node", [`${DIST}/${RUNTIME_DIR}/db-migrate.mjs`], { cwd: tree, env: treeEnv });
    expect(migrate.code, migrate.output).toBe(0);
    expect(migrate.output).toContain(`Applying ${journal.entries.length} migration(s)`);
    expect(migrate.output).toContain(`✓ Database is at ${journal.entries.at(-1)!.tag}`);

    const doctor = await runToEnd("doctor", "node", [`${DIST}/${RUNTIME_DIR}/doctor.mjs`], { cwd: tree, env: treeEnv });
    expect(doctor.code, doctor.output).toBe(0);
    expect(doctor.output).toMatch(new RegExp(`✓ Migrations\\s+all ${journal.entries.length} applied`));
    expect(doctor.output).toMatch(/✓ Platform credentials\s+client id and secret accepted/);
  });

  it("starts the web server (the image's CMD) and the worker; the image's HEALTHCHECK passes; static files are served", async () => {
    const [command, ...args] = dockerfileCommand(dockerfile, "CMD");
    web = start("web", command!, args, { cwd: tree, env: { ...treeEnv, JOBS_WORKER: "off" } });
    worker = start("worker", "node", [`${DIST}/${RUNTIME_DIR}/worker.mjs`], { cwd: tree, env: treeEnv });
    const [server, jobs] = [web, worker];
    const healthy = await until(
      async () => server.child.exitCode !== null || (await fetch(`${appUrl}/api/health`).catch(() => null))?.status === 200,
      180_000,
    );
    expect(healthy && server.child.exitCode === null, outputs()).toBe(true);
    expect(await (await fetch(`${appUrl}/api/health`)).json()).toEqual({ status: "ok", checks: { database: "ok", migrations: "ok" } });
    // Docker's health check, run as Docker runs it in the container: passes here, fails where nothing answers.
    const [check, ...checkArgs] = dockerfileCommand(dockerfile, "HEALTHCHECK");
    const passing = await runToEnd("healthcheck", check!, checkArgs, { cwd: tree, env: treeEnv });
    expect(passing.code, passing.output).toBe(0);
    const failing = await runToEnd("healthcheck", check!, checkArgs, { cwd: tree, env: { ...treeEnv, PORT: String(await freePort()) } });
    expect(failing.code).not.toBe(0);
    expect(await until(() => jobs.child.exitCode !== null || jobs.output().includes("job worker started"), 60_000)).toBe(true);
    expect(jobs.child.exitCode, outputs()).toBeNull();

    const home = await fetch(`${appUrl}/`);
    expect(home.status).toBe(200);
    const assets = [...new Set([...(await home.text()).matchAll(/\/_next\/static\/[^"'\s)]+/g)].map((match) => match[0]))];
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect((await fetch(`${appUrl}${asset}`)).status, asset).toBe(200);
  }, 240_000);

  it("a merchant installs through the consent screen, the worker completes the store's import, a signed webhook is stored", async () => {
    expect(web, "the web server was started").not.toBeNull();
    expect(web!.child.exitCode, outputs()).toBeNull();
    // GET /install: the attempt cookie and the consent screen's address.
    const begin = await fetch(`${appUrl}/install`, { redirect: "manual" });
    expect(begin.status).toBe(302);
    const appCookie = begin.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const consent = await fetch(begin.headers.get("location")!, { headers: { cookie: "emu_merchant=1", "user-agent": "Mozilla/5.0 (runtime-tree test)" } });
    const requestId = /name="request_id" value="([^"]+)"/.exec(await consent.text())?.[1];
    expect(requestId, "the consent screen's request id").toBeTruthy();
    const approve = await fetch(`${emulatorUrl}/oauth/apps/approve`, {
      method: "POST",
      headers: { cookie: "emu_merchant=1", "content-type": "application/x-www-form-urlencoded", "user-agent": "Mozilla/5.0 (runtime-tree test)" },
      body: new URLSearchParams({ request_id: requestId!, store_id: "101" }),
      redirect: "manual",
    });
    const callback = approve.headers.get("location") ?? "";
    expect(callback).toContain(`${appUrl}/oauth/callback?`);
    const landed = await fetch(callback, { headers: { cookie: appCookie }, redirect: "manual" });
    expect(landed.status).toBe(303);
    expect(landed.headers.get("location"), outputs()).toMatch(new RegExp(`^${appUrl}/stores`));

    const db = sql!;
    expect(await db`select store_id, state from installs`).toEqual([{ store_id: 101, state: "active" }]);
    // The import: only the worker works jobs here (the web server runs with JOBS_WORKER=off).
    const done = await until(async () => (await db`select status from order_backfills where store_id = 101`)[0]?.status === "done", 180_000);
    expect(done, `${JSON.stringify(await db`select * from order_backfills`)}\n${outputs()}`).toBe(true);
    const [{ imported }] = (await db`select count(*)::int as imported from orders where store_id = 101`) as unknown as [{ imported: number }];
    expect(imported).toBeGreaterThan(0);

    // A new order on the platform: the emulator's dispatcher signs and delivers order.created to the app.
    const placed = (await (await fetch(`${emulatorUrl}/_emulator/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ storeId: 101 }),
    })).json()) as { id: number };
    expect((await fetch(`${emulatorUrl}/_emulator/tick`, { method: "POST" })).status).toBe(200);
    const received = await until(async () => (await db`select 1 from webhook_events where store_id = 101 and event = 'order.created'`).length > 0, 30_000);
    expect(received, outputs()).toBe(true);
    expect(await db`select 1 from orders where store_id = 101 and id = ${placed.id}`).toHaveLength(1);
  }, 300_000);

  it("the worker stops cleanly on SIGTERM, within the 10 s a host gives", async () => {
    const jobs = worker!;
    expect(jobs.child.exitCode).toBeNull();
    jobs.child.kill("SIGTERM");
    const code = await Promise.race([jobs.exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 10_000))]);
    expect(code, jobs.output().slice(-2000)).toBe(0);
    expect(jobs.output()).toContain("job worker stopped");
  });
});
