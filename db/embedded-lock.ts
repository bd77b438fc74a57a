import { readFile, unlink, writeFile } from "node:fs/promises";

/**
 * Nothing stops two processes from opening one PGlite folder, and that corrupts it. A lock file holding the
 * owner's pid turns that mistake (say, `npm run db:migrate` beside a running `npm run dev`) into a clear error.
 * Returns the release.
 */
export async function lockEmbeddedFolder(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = `${dataDir}.lock`;
  const mine = String(process.pid);
  try {
    await writeFile(lockPath, mine, { flag: "wx" });
  } catch {
    const owner = Number((await readFile(lockPath, "utf8").catch(() => "")).trim());
    if (owner && owner !== process.pid && processIsAlive(owner)) {
      throw new Error(
        `The embedded database at ${dataDir} is open in another process (pid ${owner}). ` +
          "Stop that process first (the app migrates the embedded database itself when it starts), " +
          "or set DATABASE_URL to use a PostgreSQL server.",
      );
    }
    await writeFile(lockPath, mine);
  }
  // A lock left by a crashed process names a dead pid and is taken over above.
  const release = async () => {
    const owner = await readFile(lockPath, "utf8").catch(() => "");
    if (owner.trim() === mine) await unlink(lockPath).catch(() => {});
  };
  return release;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
