import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PGLITE_TEMPLATE_VAR, seedPgliteDir } from "../e2e/support/pglite-template";

/** The browser tests' apps start on copies of one migrated embedded database (tests/e2e/support/pglite-template.ts). */
describe("seedPgliteDir", () => {
  let root: string;
  let template: string;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "pglite-template-test-"));
    template = path.join(root, "template");
    await mkdir(path.join(template, "base"), { recursive: true });
    await writeFile(path.join(template, "PG_VERSION"), "17\n");
    await writeFile(path.join(template, "base", "1"), "pages");
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("copies the template, subfolders included, into a folder that did not exist", async () => {
    const folder = path.join(root, "app", "pglite");
    expect(await seedPgliteDir(folder, { [PGLITE_TEMPLATE_VAR]: template })).toBe(true);
    expect(await readFile(path.join(folder, "PG_VERSION"), "utf8")).toBe("17\n");
    expect(await readFile(path.join(folder, "base", "1"), "utf8")).toBe("pages");
  });

  it("copies nothing without the variable, so the app creates its database as a first start does", async () => {
    const folder = path.join(root, "app", "pglite");
    expect(await seedPgliteDir(folder, {})).toBe(false);
    await expect(readFile(path.join(folder, "PG_VERSION"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a folder that already holds a database, and leaves its files as they were", async () => {
    const folder = path.join(root, "existing");
    await mkdir(folder);
    await writeFile(path.join(folder, "PG_VERSION"), "16\n");
    await expect(seedPgliteDir(folder, { [PGLITE_TEMPLATE_VAR]: template })).rejects.toMatchObject({ code: "ERR_FS_CP_EEXIST" });
    expect(await readFile(path.join(folder, "PG_VERSION"), "utf8")).toBe("16\n");
  });
});
