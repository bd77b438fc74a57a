import { beforeEach, describe, expect, it } from "vitest";
import { CATEGORY_BODY_MAX_BYTES, CATEGORY_NAME_MAX, REORDER_BODY_MAX_BYTES } from "../src/api/categories";
import type { Category } from "../src/model";
import { api, newKey, resetWithInstall, startEmulatorForFile } from "./support";

const emu = startEmulatorForFile();
let token: string;
beforeEach(() => {
  token = resetWithInstall(emu, 101);
});

const write = (method: string, path: string, body?: unknown) => api(emu, token, method, path, { key: newKey(), body });
const read = (path: string) => api(emu, token, "GET", path);
const storeCategories = (storeId = 101) => emu.ctx.state.categories.filter((category) => category.storeId === storeId);
const topLevelWithChildren = () =>
  storeCategories().find((category) => category.parentId === null && storeCategories().some((child) => child.parentId === category.id))!;
const emptyTopLevel = () =>
  storeCategories().find(
    (category) => category.parentId === null && category.productCount === 0 && !storeCategories().some((child) => child.parentId === category.id),
  )!;
const subcategory = () => storeCategories().find((category) => category.parentId !== null)!;
const otherStoreCategory = () => storeCategories(102)[0]!;

describe("list", () => {
  it("lists the store's categories newest first with product counts, paged by cursor", async () => {
    const all: { id: number; product_count: number; created_at: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await read(`/v1/categories?limit=4${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.json.data.items.length).toBeLessThanOrEqual(4);
      all.push(...page.json.data.items);
      cursor = page.json.data.next_cursor;
      expect(page.json.data.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(all.map((item) => item.id).sort()).toEqual(storeCategories().map((category) => category.id).sort());
    const times = all.map((item) => Date.parse(item.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all.every((item) => typeof item.product_count === "number")).toBe(true);
  });

  it.each([
    ["0", (category: Category) => category.parentId === null],
    ["null", (category: Category) => category.parentId === null],
    ["", (category: Category) => category.parentId === null],
  ])("parent_id=%j lists top-level categories", async (value, keep) => {
    const page = await read(`/v1/categories?limit=100&parent_id=${value}`);
    expect(page.json.data.items.map((item: { id: number }) => item.id).sort()).toEqual(storeCategories().filter(keep).map((c) => c.id).sort());
  });

  it("parent_id=<id> lists its subcategories; any other value gives 400", async () => {
    const parent = topLevelWithChildren();
    const page = await read(`/v1/categories?parent_id=${parent.id}`);
    expect(page.json.data.items.length).toBeGreaterThan(0);
    expect(page.json.data.items.every((item: { parent_id: number }) => item.parent_id === parent.id)).toBe(true);
    for (const bad of ["abc", "-1", "1.5"]) {
      const refused = await read(`/v1/categories?parent_id=${bad}`);
      expect(refused.status).toBe(400);
      expect(refused.json.error.code).toBe("bad_request");
    }
  });

  it("status filters active/inactive and any other value is ignored", async () => {
    const target = storeCategories()[0]!;
    await write("PATCH", `/v1/categories/${target.id}`, { status: "inactive" });
    const inactive = await read("/v1/categories?status=inactive");
    expect(inactive.json.data.items.map((item: { id: number }) => item.id)).toEqual([target.id]);
    const ignored = await read("/v1/categories?status=bogus&limit=100");
    expect(ignored.json.data.items.length).toBe(storeCategories().length);
  });

  it("limit defaults to 20, is capped at 100, and must be a positive integer", async () => {
    expect((await read("/v1/categories")).json.data.items.length).toBe(Math.min(20, storeCategories().length));
    expect((await read("/v1/categories?limit=0")).status).toBe(400);
    expect((await read("/v1/categories?cursor=garbage!")).status).toBe(400);
  });
});

describe("create", () => {
  it("creates at the end of the sort order with a unique slug: 201 with the category", async () => {
    const maxTop = Math.max(...storeCategories().filter((c) => c.parentId === null).map((c) => c.sortOrder));
    const first = await write("POST", "/v1/categories", { name: "Robes" });
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({ name: "Robes", slug: "robes-2", status: "active", parent_id: null, sort_order: maxTop + 1, product_count: 0, children: [] });
    const second = await write("POST", "/v1/categories", { name: "Robes" });
    expect(second.json.data.slug).toBe("robes-3");
    const accented = await write("POST", "/v1/categories", { name: "  Été Chic ", status: "inactive" });
    expect(accented.json.data).toMatchObject({ name: "Été Chic", slug: "ete-chic", status: "inactive" });
  });

  it("creates a subcategory under a top-level category", async () => {
    const parent = topLevelWithChildren();
    const created = await write("POST", "/v1/categories", { name: "Nouvelle", parent_id: parent.id });
    expect(created.status).toBe(201);
    expect(created.json.data.parent_id).toBe(parent.id);
    const shown = await read(`/v1/categories/${parent.id}`);
    expect(shown.json.data.children.map((child: { id: number }) => child.id)).toContain(created.json.data.id);
  });

  it.each([
    ["missing name", {}],
    ["empty name", { name: "   " }],
    ["name too long", { name: "x".repeat(CATEGORY_NAME_MAX + 1) }],
    ["name not a string", { name: 12 }],
    ["bad status", { name: "A", status: "archived" }],
    ["non-integer parent_id", { name: "A", parent_id: "5" }],
    ["fractional parent_id", { name: "A", parent_id: 1.5 }],
  ])("%s gives 422 validation_error", async (_name, body) => {
    const result = await write("POST", "/v1/categories", body);
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("validation_error");
  });

  it.each([
    ["a parent outside the store", () => otherStoreCategory().id],
    ["an absent parent", () => 999_999],
    ["a subcategory as parent", () => subcategory().id],
  ])("%s gives 422 invalid_parent", async (_name, parentId) => {
    const result = await write("POST", "/v1/categories", { name: "A", parent_id: parentId() });
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("invalid_parent");
  });

  it("parent_id 0 or null means top level, and a name of the maximum length is accepted", async () => {
    expect((await write("POST", "/v1/categories", { name: "A", parent_id: 0 })).json.data.parent_id).toBeNull();
    expect((await write("POST", "/v1/categories", { name: "x".repeat(CATEGORY_NAME_MAX), parent_id: null })).status).toBe(201);
  });

  it("a body over the limit gives 413", async () => {
    const result = await write("POST", "/v1/categories", { name: "A", padding: "x".repeat(CATEGORY_BODY_MAX_BYTES) });
    expect(result.status).toBe(413);
  });

  it("is recorded in the change history", async () => {
    const created = await write("POST", "/v1/categories", { name: "Historique" });
    expect(emu.ctx.state.changes?.some((change) => change.action === "create" && change.entityId === created.json.data.id)).toBe(true);
  });
});

describe("read one", () => {
  it("returns the category with children and product count", async () => {
    const parent = topLevelWithChildren();
    const shown = await read(`/v1/categories/${parent.id}`);
    expect(shown.status).toBe(200);
    expect(shown.json.data.id).toBe(parent.id);
    expect(shown.json.data.children.length).toBe(storeCategories().filter((c) => c.parentId === parent.id).length);
    expect(shown.json.data).toHaveProperty("product_count");
  });

  it.each([["abc", 400], ["0", 400], ["1.5", 400], ["999999", 404]])("id %s gives %i", async (id, status) => {
    expect((await read(`/v1/categories/${id}`)).status).toBe(status);
  });

  it("a category of another store is not found", async () => {
    const result = await read(`/v1/categories/${otherStoreCategory().id}`);
    expect(result.status).toBe(404);
    expect(result.json.error.code).toBe("not_found");
  });
});

describe("update", () => {
  it("changes only sent fields; a rename regenerates a unique slug", async () => {
    const target = emptyTopLevel();
    const before = { ...target };
    const renamed = await write("PATCH", `/v1/categories/${target.id}`, { name: "Robes" });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data).toMatchObject({ name: "Robes", slug: "robes-2", status: before.status, sort_order: before.sortOrder });
    expect(emu.ctx.state.changes?.some((change) => change.action === "update" && change.entityId === target.id)).toBe(true);
  });

  it("an empty body changes nothing and returns the category", async () => {
    const target = emptyTopLevel();
    const before = { ...target };
    const result = await write("PATCH", `/v1/categories/${target.id}`);
    expect(result.status).toBe(200);
    expect(result.json.data.updated_at).toBe(before.updatedAt);
    expect(emu.ctx.state.changes ?? []).toHaveLength(0);
  });

  it.each([
    ["under itself", (target: Category) => target.id],
    ["under a subcategory", () => subcategory().id],
    ["under another store's category", () => otherStoreCategory().id],
  ])("moving %s gives 422 invalid_parent", async (_name, parent) => {
    const target = emptyTopLevel();
    const result = await write("PATCH", `/v1/categories/${target.id}`, { parent_id: parent(target) });
    expect(result.json.error.code).toBe("invalid_parent");
  });

  it("a category with subcategories cannot be moved under another one", async () => {
    const withChildren = topLevelWithChildren();
    const result = await write("PATCH", `/v1/categories/${withChildren.id}`, { parent_id: emptyTopLevel().id });
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("invalid_parent");
  });

  it("moves an empty top-level category under another top-level one, and back to the top with null", async () => {
    const target = emptyTopLevel();
    const parent = topLevelWithChildren();
    expect((await write("PATCH", `/v1/categories/${target.id}`, { parent_id: parent.id })).json.data.parent_id).toBe(parent.id);
    expect((await write("PATCH", `/v1/categories/${target.id}`, { parent_id: null })).json.data.parent_id).toBeNull();
  });

  it("validation: bad status 422, missing 404, non-numeric id 400, too large 413", async () => {
    const target = emptyTopLevel();
    expect((await write("PATCH", `/v1/categories/${target.id}`, { status: "x" })).json.error.code).toBe("validation_error");
    expect((await write("PATCH", "/v1/categories/999999", { name: "x" })).status).toBe(404);
    expect((await write("PATCH", "/v1/categories/abc", { name: "x" })).status).toBe(400);
    expect((await write("PATCH", `/v1/categories/${target.id}`, { name: "x".repeat(CATEGORY_BODY_MAX_BYTES) })).status).toBe(413);
  });
});

describe("delete", () => {
  it("deletes an empty category: 200 { deleted: true, id }", async () => {
    const target = emptyTopLevel();
    const result = await write("DELETE", `/v1/categories/${target.id}`);
    expect(result.status).toBe(200);
    expect(result.json.data).toEqual({ deleted: true, id: target.id });
    expect((await read(`/v1/categories/${target.id}`)).status).toBe(404);
    expect(emu.ctx.state.changes?.some((change) => change.action === "delete" && change.entityId === target.id)).toBe(true);
  });

  it.each([
    ["subcategories", () => topLevelWithChildren()],
    ["products", () => storeCategories().find((category) => category.productCount > 0)!],
  ])("a category still holding %s gives 409 category_not_empty", async (_name, pick) => {
    const result = await write("DELETE", `/v1/categories/${pick().id}`);
    expect(result.status).toBe(409);
    expect(result.json.error.code).toBe("category_not_empty");
  });
});

describe("reorder", () => {
  const tops = () => storeCategories().filter((category) => category.parentId === null);

  it("applies the array order, or an item's own sort_order, and answers the applied order", async () => {
    const [a, b, c] = tops();
    const result = await write("POST", "/v1/categories/reorder", { categories: [{ id: c!.id }, { id: a!.id, sort_order: 50 }, { id: b!.id }] });
    expect(result.status).toBe(200);
    expect(result.json.data.categories).toEqual([
      { id: c!.id, parent_id: null, sort_order: 1 },
      { id: a!.id, parent_id: null, sort_order: 50 },
      { id: b!.id, parent_id: null, sort_order: 3 },
    ]);
    expect(emu.ctx.state.changes ?? []).toHaveLength(0);
  });

  it.each([
    ["missing categories", {}],
    ["categories not an array", { categories: "1,2" }],
  ])("%s gives 400 bad_request", async (_name, body) => {
    const result = await write("POST", "/v1/categories/reorder", body);
    expect(result.status).toBe(400);
    expect(result.json.error.code).toBe("bad_request");
  });

  it.each([
    ["an empty array", () => []],
    ["a non-positive id", () => [{ id: 0 }]],
    ["a repeated id", () => [{ id: tops()[0]!.id }, { id: tops()[0]!.id }]],
    ["a non-integer sort_order", () => [{ id: tops()[0]!.id, sort_order: "2" }]],
  ])("%s gives 422 validation_error", async (_name, categories) => {
    const result = await write("POST", "/v1/categories/reorder", { categories: categories() });
    expect(result.status).toBe(422);
    expect(result.json.error.code).toBe("validation_error");
  });

  it("an id outside the store gives 404 and changes nothing (one transaction)", async () => {
    const before = storeCategories().map((category) => [category.id, category.sortOrder]);
    const result = await write("POST", "/v1/categories/reorder", { categories: [{ id: tops()[0]!.id, sort_order: 99 }, { id: otherStoreCategory().id }] });
    expect(result.status).toBe(404);
    expect(result.json.error.code).toBe("not_found");
    expect(storeCategories().map((category) => [category.id, category.sortOrder])).toEqual(before);
  });

  it("a body over the limit gives 413", async () => {
    const categories = Array.from({ length: REORDER_BODY_MAX_BYTES / 8 }, (_, index) => ({ id: index + 1 }));
    expect((await write("POST", "/v1/categories/reorder", { categories })).status).toBe(413);
  });
});
