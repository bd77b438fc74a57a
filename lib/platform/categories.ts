import "server-only";
import type { Caller, WriteOptions } from "./caller";
import { paginate, toPage } from "./paginate";
import { assertId, invalidInput, parseAnswer } from "./parse";
import {
  categoryDeleteSchema,
  categorySchema,
  categoryWithChildrenSchema,
  listEnvelope,
  reorderResultSchema,
} from "./schemas";
import type { Category, CategoryInput, CategoryPatch, CategoryStatus, CategoryWithChildren, Page } from "./types";

type RawCategory = ReturnType<typeof categorySchema.parse>;

export type CategoryListParams = {
  cursor?: string;
  limit?: number;
  status?: CategoryStatus;
  /** A category id for its subcategories, or null for top-level categories only. */
  parentId?: number | null;
};

export type ReorderItem = { id: number; sortOrder?: number };

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

function toCategoryWithChildren(raw: ReturnType<typeof categoryWithChildrenSchema.parse>): CategoryWithChildren {
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

export function categoryOperations(call: Caller) {
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
}

export type CategoryOperations = ReturnType<typeof categoryOperations>;
