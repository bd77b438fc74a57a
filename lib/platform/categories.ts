import "server-only";
import { z } from "zod";
import { assertId, defineResource, intLike, invalidInput, listEnvelope, paginate, parseAnswer, toPage, type Page, type WriteOptions } from "./resource";

export type CategoryStatus = "active" | "inactive";

export type Category = {
  id: number;
  name: string;
  slug: string;
  status: CategoryStatus;
  /** null for a top-level category. */
  parentId: number | null;
  sortOrder: number;
  productCount: number;
};

export type CategoryWithChildren = Category & { children: Category[] };

export type CategoryInput = {
  name: string;
  status?: CategoryStatus;
  parentId?: number | null;
};

export type CategoryPatch = Partial<CategoryInput>;

export type CategoryListParams = {
  cursor?: string;
  limit?: number;
  status?: CategoryStatus;
  /** A category id for its subcategories, or null for top-level categories only. */
  parentId?: number | null;
};

export type ReorderItem = { id: number; sortOrder?: number };

const categoryFields = {
  id: intLike,
  name: z.string(),
  slug: z.string().nullish(),
  status: z.string().nullish(),
  parent_id: intLike.nullish(),
  sort_order: intLike.nullish(),
  product_count: intLike.nullish(),
  products_count: intLike.nullish(),
};

const categorySchema = z.looseObject(categoryFields);

const categoryWithChildrenSchema = z.looseObject({
  ...categoryFields,
  children: z.array(categorySchema).nullish(),
});

const categoryDeleteSchema = z.looseObject({ deleted: z.boolean(), id: intLike });

/** "200 with the applied order": an array of categories or of `{ id, sort_order }`, bare or under `categories`/`items`. */
const reorderEntry = z.looseObject({ id: intLike, sort_order: intLike.nullish() });
const reorderResultSchema = z.union([
  z.array(reorderEntry),
  z.looseObject({ categories: z.array(reorderEntry) }).transform((value) => value.categories),
  z.looseObject({ items: z.array(reorderEntry) }).transform((value) => value.items),
]);

type RawCategory = z.output<typeof categorySchema>;

function toCategory(raw: RawCategory): Category {
  const status: CategoryStatus = raw.status === "inactive" ? "inactive" : "active";
  return {
    id: raw.id,
    name: raw.name,
    slug: raw.slug ?? "",
    status,
    parentId: raw.parent_id ? raw.parent_id : null,
    sortOrder: raw.sort_order ?? 0,
    productCount: raw.product_count ?? raw.products_count ?? 0,
  };
}

function toCategoryWithChildren(raw: z.output<typeof categoryWithChildrenSchema>): CategoryWithChildren {
  return { ...toCategory(raw), children: (raw.children ?? []).map(toCategory).sort(bySortOrder) };
}

function bySortOrder(a: Category, b: Category): number {
  return a.sortOrder - b.sortOrder || a.id - b.id;
}

/** The platform's body for create and update: only fields the caller set, in snake_case. */
function inputBody(input: CategoryPatch): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (input.name !== undefined) body.name = input.name;
  if (input.status !== undefined) body.status = input.status;
  if (input.parentId !== undefined) body.parent_id = input.parentId ?? null;
  return body;
}

/** Builds the two-level tree from every category of the store, each level in sort order. */
export function buildCategoryTree(categories: Category[]): CategoryWithChildren[] {
  const tops = categories.filter((category) => category.parentId === null).sort(bySortOrder);
  const ids = new Set(tops.map((category) => category.id));
  const children = new Map<number, Category[]>();
  const orphans: Category[] = [];
  for (const category of categories) {
    if (category.parentId === null) continue;
    if (!ids.has(category.parentId)) {
      orphans.push(category);
      continue;
    }
    const siblings = children.get(category.parentId) ?? [];
    siblings.push(category);
    children.set(category.parentId, siblings);
  }
  // A subcategory whose parent is missing from the listing (deleted meanwhile) is shown at the top level, not lost.
  return [...tops, ...orphans.sort(bySortOrder)].map((category) => ({
    ...category,
    children: (children.get(category.id) ?? []).sort(bySortOrder),
  }));
}

/** `client.categories`: list, tree, read and write the store's categories (two levels). */
export const categories = defineResource((call) => {
  const list = async (params: CategoryListParams = {}): Promise<Page<Category>> => {
    const response = await call("GET", "/v1/categories", {
      query: {
        cursor: params.cursor,
        limit: params.limit,
        status: params.status,
        parent_id: params.parentId === undefined ? undefined : params.parentId === null ? 0 : assertId("parentId", params.parentId),
      },
    });
    const raw = parseAnswer(listEnvelope(categorySchema), response.data, "category list", response.requestId);
    return toPage(raw, toCategory);
  };

  return {
    list,
    iterate: (params: Omit<CategoryListParams, "cursor"> = {}) => paginate((cursor) => list({ ...params, cursor }), undefined),
    async tree(): Promise<CategoryWithChildren[]> {
      const all: Category[] = [];
      for await (const category of paginate((cursor) => list({ cursor, limit: 100 }))) all.push(category);
      return buildCategoryTree(all);
    },
    async get(id: number): Promise<CategoryWithChildren> {
      const response = await call("GET", `/v1/categories/${assertId("id", id)}`);
      return toCategoryWithChildren(parseAnswer(categoryWithChildrenSchema, response.data, "category", response.requestId));
    },
    async create(input: CategoryInput, options: WriteOptions = {}): Promise<Category> {
      if (typeof input.name !== "string") throw invalidInput("name", "is required");
      const response = await call("POST", "/v1/categories", { body: inputBody(input), idempotencyKey: options.idempotencyKey });
      return toCategory(parseAnswer(categorySchema, response.data, "category", response.requestId));
    },
    async update(id: number, patch: CategoryPatch, options: WriteOptions = {}): Promise<Category> {
      const response = await call("PATCH", `/v1/categories/${assertId("id", id)}`, {
        body: inputBody(patch),
        idempotencyKey: options.idempotencyKey,
      });
      return toCategory(parseAnswer(categorySchema, response.data, "category", response.requestId));
    },
    /** Array position is the new order unless an item carries its own sortOrder. All or none. */
    async reorder(items: ReorderItem[], options: WriteOptions = {}): Promise<{ id: number; sortOrder: number | null }[]> {
      const body = {
        categories: items.map((item) =>
          item.sortOrder === undefined ? { id: assertId("id", item.id) } : { id: assertId("id", item.id), sort_order: item.sortOrder },
        ),
      };
      const response = await call("POST", "/v1/categories/reorder", { body, idempotencyKey: options.idempotencyKey });
      const applied = parseAnswer(reorderResultSchema, response.data, "reorder result", response.requestId);
      return applied.map((entry) => ({ id: entry.id, sortOrder: entry.sort_order ?? null }));
    },
    async delete(id: number, options: WriteOptions = {}): Promise<{ deleted: boolean; id: number }> {
      const response = await call("DELETE", `/v1/categories/${assertId("id", id)}`, { idempotencyKey: options.idempotencyKey });
      const result = parseAnswer(categoryDeleteSchema, response.data, "delete result", response.requestId);
      return { deleted: result.deleted, id: result.id };
    },
  };
});
