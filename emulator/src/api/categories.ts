import type { Category, ChangeRecord } from "../model";
import { slugify, uniqueSlug } from "../slug";
import { apiError, apiOk } from "./envelope";
import { isInteger, jsonBody } from "./input";
import { paginate } from "./pagination";
import type { ApiCall, Operation } from "./types";

/** Chosen where the spec is silent (it only says a maximum exists). */
export const CATEGORY_NAME_MAX = 100;
/** Body limits behind the 413 of create/update and reorder; the spec does not give them. */
export const CATEGORY_BODY_MAX_BYTES = 8 * 1024;
export const REORDER_BODY_MAX_BYTES = 64 * 1024;

const STATUSES = ["active", "inactive"];

function storeCategories(call: ApiCall): Category[] {
  return call.ctx.state.categories.filter((category) => category.storeId === call.store.id);
}

function findCategory(call: ApiCall, id: number): Category | undefined {
  return call.ctx.state.categories.find((category) => category.storeId === call.store.id && category.id === id);
}

function childrenOf(call: ApiCall, id: number): Category[] {
  return storeCategories(call)
    .filter((category) => category.parentId === id)
    .sort((left, right) => left.sortOrder - right.sortOrder || left.id - right.id);
}

export function categoryItem(category: Category) {
  return {
    id: category.id,
    name: category.name,
    slug: category.slug,
    status: category.status,
    parent_id: category.parentId,
    sort_order: category.sortOrder,
    product_count: category.productCount,
    created_at: category.createdAt,
    updated_at: category.updatedAt,
  };
}

function categoryDetail(call: ApiCall, category: Category) {
  return { ...categoryItem(category), children: childrenOf(call, category.id).map(categoryItem) };
}

function record(call: ApiCall, action: ChangeRecord["action"], before: Category | null, after: Category | null): void {
  const state = call.ctx.state;
  state.changes ??= [];
  state.changes.push({
    id: call.ctx.nextId("change"),
    storeId: call.store.id,
    at: call.ctx.clock.now().toISOString(),
    action,
    entity: "category",
    entityId: (after ?? before)!.id,
    before: before ? { ...before } : null,
    after: after ? { ...after } : null,
    actor: `app:${call.app.id}`,
  });
}

function slugFor(call: ApiCall, name: string, exceptId: number | null): string {
  const taken = storeCategories(call)
    .filter((category) => category.id !== exceptId)
    .map((category) => category.slug);
  return uniqueSlug(slugify(name), taken);
}

/** Parses `/v1/categories/{id}`: an integer of at least 1, or 400. */
function pathId(call: ApiCall): number | null {
  const raw = call.params.id ?? "";
  return /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : null;
}

type FieldErrors = Record<string, string[]>;

/** Shared by create and update: field-level checks (422 validation_error) then parent rules (422 invalid_parent). */
function checkFields(call: ApiCall, body: Record<string, unknown>, creating: boolean, self: Category | null) {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  let name: string | undefined;
  if (creating || body.name !== undefined) {
    if (typeof body.name !== "string" || body.name.trim() === "") add("name", "name is required");
    else if (body.name.trim().length > CATEGORY_NAME_MAX) add("name", `name must be at most ${CATEGORY_NAME_MAX} characters`);
    else name = body.name.trim();
  }
  if (body.status !== undefined && !STATUSES.includes(body.status as string)) add("status", "status must be active or inactive");
  let parentId: number | null | undefined;
  if (body.parent_id !== undefined) {
    if (body.parent_id === null || body.parent_id === 0) parentId = null;
    else if (!isInteger(body.parent_id)) add("parent_id", "parent_id must be an integer");
    else parentId = body.parent_id;
  }
  if (!creating && body.sort_order !== undefined && !isInteger(body.sort_order)) add("sort_order", "sort_order must be an integer");
  if (Object.keys(errors).length > 0) {
    return { ok: false as const, response: apiError(422, "validation_error", "Invalid category", call.requestId, { details: errors }) };
  }
  if (parentId !== undefined && parentId !== null) {
    const parent = findCategory(call, parentId);
    if (!parent || parent.parentId !== null || parent.id === self?.id) {
      return {
        ok: false as const,
        response: apiError(422, "invalid_parent", "The parent must be a top-level category of this store", call.requestId),
      };
    }
    if (self && childrenOf(call, self.id).length > 0) {
      return {
        ok: false as const,
        response: apiError(422, "invalid_parent", "A category with subcategories cannot be moved under another one", call.requestId),
      };
    }
  }
  return { ok: true as const, name, parentId };
}

function nextSortOrder(call: ApiCall, parentId: number | null): number {
  const siblings = storeCategories(call).filter((category) => category.parentId === parentId);
  return siblings.reduce((max, category) => Math.max(max, category.sortOrder), 0) + 1;
}

function list(call: ApiCall) {
  const query = call.request.url.searchParams;
  let items = storeCategories(call);
  const status = query.get("status");
  // Any other status value is ignored, as the spec says.
  if (status === "active" || status === "inactive") items = items.filter((category) => category.status === status);
  const parent = query.get("parent_id");
  if (parent !== null) {
    if (parent === "" || parent === "0" || parent === "null") items = items.filter((category) => category.parentId === null);
    else if (/^[1-9][0-9]{0,14}$/.test(parent)) items = items.filter((category) => category.parentId === Number(parent));
    else return apiError(400, "bad_request", "parent_id must be a category id, 0, null or empty", call.requestId);
  }
  const page = paginate(call, items, (category) => ({ at: category.createdAt, id: category.id }), categoryItem);
  return page.ok ? apiOk(200, page.value, call.requestId) : page.response;
}

function create(call: ApiCall) {
  const body = jsonBody(call, CATEGORY_BODY_MAX_BYTES);
  if (!body.ok) return body.response;
  const checked = checkFields(call, body.value, true, null);
  if (!checked.ok) return checked.response;
  const now = call.ctx.clock.now().toISOString();
  const parentId = checked.parentId ?? null;
  const category: Category = {
    id: call.ctx.nextId("category"),
    storeId: call.store.id,
    name: checked.name!,
    slug: slugFor(call, checked.name!, null),
    status: (body.value.status as Category["status"] | undefined) ?? "active",
    parentId,
    sortOrder: nextSortOrder(call, parentId),
    productCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  call.ctx.state.categories.push(category);
  record(call, "create", null, category);
  call.ctx.save();
  return apiOk(201, categoryDetail(call, category), call.requestId);
}

function show(call: ApiCall) {
  const id = pathId(call);
  if (id === null) return apiError(400, "bad_request", "id must be an integer of at least 1", call.requestId);
  const category = findCategory(call, id);
  if (!category) return apiError(404, "not_found", "Category not found", call.requestId);
  return apiOk(200, categoryDetail(call, category), call.requestId);
}

function update(call: ApiCall) {
  const id = pathId(call);
  if (id === null) return apiError(400, "bad_request", "id must be an integer of at least 1", call.requestId);
  const body = jsonBody(call, CATEGORY_BODY_MAX_BYTES);
  if (!body.ok) return body.response;
  const category = findCategory(call, id);
  if (!category) return apiError(404, "not_found", "Category not found", call.requestId);
  const checked = checkFields(call, body.value, false, category);
  if (!checked.ok) return checked.response;
  const before = { ...category };
  let changed = false;
  if (checked.name !== undefined && checked.name !== category.name) {
    category.name = checked.name;
    category.slug = slugFor(call, checked.name, category.id);
    changed = true;
  }
  if (body.value.status !== undefined && body.value.status !== category.status) {
    category.status = body.value.status as Category["status"];
    changed = true;
  }
  if (checked.parentId !== undefined && checked.parentId !== category.parentId) {
    category.parentId = checked.parentId;
    category.sortOrder = nextSortOrder(call, checked.parentId);
    changed = true;
  }
  if (isInteger(body.value.sort_order) && body.value.sort_order !== category.sortOrder) {
    category.sortOrder = body.value.sort_order;
    changed = true;
  }
  if (changed) {
    category.updatedAt = call.ctx.clock.now().toISOString();
    record(call, "update", before, category);
    call.ctx.save();
  }
  return apiOk(200, categoryDetail(call, category), call.requestId);
}

function remove(call: ApiCall) {
  const id = pathId(call);
  if (id === null) return apiError(400, "bad_request", "id must be an integer of at least 1", call.requestId);
  const category = findCategory(call, id);
  if (!category) return apiError(404, "not_found", "Category not found", call.requestId);
  if (category.productCount > 0 || childrenOf(call, id).length > 0) {
    return apiError(409, "category_not_empty", "The category still holds products or subcategories", call.requestId);
  }
  const categories = call.ctx.state.categories;
  categories.splice(categories.indexOf(category), 1);
  record(call, "delete", category, null);
  call.ctx.save();
  return apiOk(200, { deleted: true, id }, call.requestId);
}

/** All checks first, then every change at once: one transaction, all or none. */
function reorder(call: ApiCall) {
  const body = jsonBody(call, REORDER_BODY_MAX_BYTES);
  if (!body.ok) return body.response;
  const entries = body.value.categories;
  if (!Array.isArray(entries)) return apiError(400, "bad_request", "categories must be an array", call.requestId);
  const invalid = (message: string) => apiError(422, "validation_error", message, call.requestId);
  if (entries.length === 0) return invalid("categories must not be empty");
  const wanted: { id: number; sortOrder: number }[] = [];
  const seen = new Set<number>();
  for (const [index, entry] of entries.entries()) {
    const item: Record<string, unknown> = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : { id: entry };
    if (!isInteger(item.id) || item.id < 1) return invalid(`categories[${index}].id must be a positive integer`);
    if (seen.has(item.id)) return invalid(`categories[${index}].id is repeated`);
    if (item.sort_order !== undefined && !isInteger(item.sort_order)) {
      return invalid(`categories[${index}].sort_order must be an integer`);
    }
    seen.add(item.id);
    wanted.push({ id: item.id, sortOrder: isInteger(item.sort_order) ? item.sort_order : index + 1 });
  }
  const targets = wanted.map((entry) => findCategory(call, entry.id));
  if (targets.some((category) => category === undefined)) {
    return apiError(404, "not_found", "A category in the list does not belong to this store", call.requestId);
  }
  const now = call.ctx.clock.now().toISOString();
  wanted.forEach((entry, index) => {
    const category = targets[index]!;
    category.sortOrder = entry.sortOrder;
    category.updatedAt = now;
  });
  call.ctx.save();
  return apiOk(
    200,
    { categories: targets.map((category) => ({ id: category!.id, parent_id: category!.parentId, sort_order: category!.sortOrder })) },
    call.requestId,
  );
}

export const categoryOperations: Operation[] = [
  { method: "GET", path: "/v1/categories", scope: "products:read", handler: list },
  { method: "POST", path: "/v1/categories", scope: "products:write", handler: create },
  { method: "POST", path: "/v1/categories/reorder", scope: "products:write", handler: reorder },
  { method: "GET", path: "/v1/categories/:id", scope: "products:read", handler: show },
  { method: "PATCH", path: "/v1/categories/:id", scope: "products:write", handler: update },
  { method: "DELETE", path: "/v1/categories/:id", scope: "products:write", handler: remove },
];
