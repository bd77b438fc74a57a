"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { type ActionState, formValues, validatedAction } from "@/lib/actions/validated-action";
import { log } from "@/lib/log";
import { type CategoryPatch, interactivePlatform, isPlatformError, newIdempotencyKey } from "@/lib/platform";
import { requireStore } from "@/lib/tenancy";
import { describePlatformError } from "@/lib/ui/platform-messages";

/**
 * Category writes. Each form carries an idempotency key rendered by the server with the page, so a form sent
 * twice (double click, resubmission after a network blip) is one write on the platform: a repeat with the same
 * key gets the stored answer. Two copies arriving at the same moment would both run on the platform (it stores
 * the answer only when the first finishes), so copies in flight in this process are joined here as well.
 */

/** As the form sent it: requireStore parses it once, exactly as it parses the id in a URL. */
const storeIdField = z.string();
const idempotencyKeyField = z
  .string()
  .regex(/^[A-Za-z0-9_\-:.]{1,64}$/, "This form is out of date: reload the page and try again.");
// Length is the platform's call (its maximum is not documented); the cap only keeps absurd input off the wire.
const nameField = z.string().trim().min(1, "Enter a name.").max(200_000, "This name is far too long.");
const statusField = z.enum(["active", "inactive"], { error: "Choose active or inactive." });
/** "" and 0 mean top level. */
const parentField = z.preprocess(
  (value) => (value === "" || value === undefined || value === null ? 0 : value),
  z.coerce.number({ error: "Choose a parent category." }).int("Choose a parent category.").min(0, "Choose a parent category."),
);
const categoryIdField = z.coerce.number().int().positive("This category no longer exists: reload the page.");

const inFlight = new Map<string, Promise<ActionState>>();

function categoriesPath(storeId: number): string {
  return `/stores/${storeId}/categories`;
}

/**
 * Runs one platform write for a store the session owns, and turns any PlatformError into the state the form
 * shows. The key comes back fresh after a definitive answer (success or 4xx, both stored by the platform) and
 * unchanged after a 429, 5xx or lost answer, so a retry can replay safely.
 */
async function writeToPlatform(
  storeIdParam: string,
  idempotencyKey: string,
  values: Record<string, string>,
  write: (storeId: number) => Promise<string>,
): Promise<ActionState> {
  const { storeId } = await requireStore(storeIdParam);
  // The body is part of the key: only true copies are joined; a different body with a reused key is the platform's to refuse.
  const flightKey = `${storeId}:${idempotencyKey}:${JSON.stringify(values)}`;
  const running = inFlight.get(flightKey);
  if (running) return running;
  const attempt = (async (): Promise<ActionState> => {
    try {
      const message = await write(storeId);
      revalidatePath(categoriesPath(storeId));
      return { ok: true, message, idempotencyKey: newIdempotencyKey("ui") };
    } catch (error) {
      if (!isPlatformError(error)) throw error;
      const described = describePlatformError(error, "category");
      log.warn("category write refused", { storeId, status: error.status, code: error.code, requestId: error.requestId });
      // Not revalidated on a 404: the row would vanish with the message that explains why.
      return {
        ok: false,
        message: described.message,
        fieldErrors: described.fieldErrors,
        retryAfter: described.retryAfter,
        reload: described.gone,
        reinstall: described.reinstall,
        values,
        idempotencyKey: described.retryable ? idempotencyKey : newIdempotencyKey("ui"),
      };
    }
  })();
  inFlight.set(flightKey, attempt);
  try {
    return await attempt;
  } finally {
    inFlight.delete(flightKey);
  }
}

export const createCategory = validatedAction(
  z.object({
    storeId: storeIdField,
    idempotencyKey: idempotencyKeyField,
    name: nameField,
    status: statusField.default("active"),
    parentId: parentField,
  }),
  async (input, formData) =>
    writeToPlatform(input.storeId, input.idempotencyKey, formValues(formData), async (storeId) => {
      const platform = interactivePlatform(storeId);
      const created = await platform.categories.create(
        { name: input.name, status: input.status, parentId: input.parentId === 0 ? null : input.parentId },
        { idempotencyKey: input.idempotencyKey },
      );
      return `Created “${created.name}”.`;
    }),
);

export const updateCategory = validatedAction(
  z.object({
    storeId: storeIdField,
    idempotencyKey: idempotencyKeyField,
    categoryId: categoryIdField,
    name: nameField,
    status: statusField,
    parentId: parentField,
    originalName: z.string(),
    originalStatus: z.string(),
    originalParentId: parentField,
  }),
  async (input, formData) => {
    // Only what the merchant changed is sent: a PATCH with a stale copy of other fields could undo someone else's edit.
    const patch: CategoryPatch = {};
    if (input.name !== input.originalName.trim()) patch.name = input.name;
    if (input.status !== input.originalStatus) patch.status = input.status;
    if (input.parentId !== input.originalParentId) patch.parentId = input.parentId === 0 ? null : input.parentId;
    if (Object.keys(patch).length === 0) {
      return { ok: true, message: "Nothing to save: no field was changed.", idempotencyKey: input.idempotencyKey };
    }
    return writeToPlatform(input.storeId, input.idempotencyKey, formValues(formData), async (storeId) => {
      const platform = interactivePlatform(storeId);
      const updated = await platform.categories.update(input.categoryId, patch, { idempotencyKey: input.idempotencyKey });
      return `Saved “${updated.name}”.`;
    });
  },
);

export const deleteCategory = validatedAction(
  z.object({
    storeId: storeIdField,
    idempotencyKey: idempotencyKeyField,
    categoryId: categoryIdField,
    name: z.string().default(""),
  }),
  async (input, formData) =>
    writeToPlatform(input.storeId, input.idempotencyKey, formValues(formData), async (storeId) => {
      const platform = interactivePlatform(storeId);
      await platform.categories.delete(input.categoryId, { idempotencyKey: input.idempotencyKey });
      return input.name ? `Deleted “${input.name}”.` : "Deleted.";
    }),
);

export const reorderCategories = validatedAction(
  z.object({
    storeId: storeIdField,
    idempotencyKey: idempotencyKeyField,
    /** Category ids of one level (the top level, or one parent's subcategories) in their new order. */
    ids: z
      .string()
      .regex(/^[1-9][0-9]*(,[1-9][0-9]*)*$/, "Nothing to reorder.")
      .transform((value) => value.split(",").map(Number))
      .refine((ids) => new Set(ids).size === ids.length, "A category appears twice in the new order."),
  }),
  async (input, formData) =>
    writeToPlatform(input.storeId, input.idempotencyKey, formValues(formData), async (storeId) => {
      const platform = interactivePlatform(storeId);
      await platform.categories.reorder(
        input.ids.map((id) => ({ id })),
        { idempotencyKey: input.idempotencyKey },
      );
      return "New order saved.";
    }),
);
