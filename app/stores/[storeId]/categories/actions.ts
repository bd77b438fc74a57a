"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { type ActionState, formValues, validatedAction } from "@/lib/actions/validated-action";
import { log } from "@/lib/log";
import { isClosedStore, lostAccess } from "@/lib/lost-access";
import { type CategoryPatch, interactivePlatform, isPlatformError, newIdempotencyKey } from "@/lib/platform";
import { storeHref } from "@/lib/sections";
import { requireStore } from "@/lib/tenancy";
import { CATEGORY_NAME_MAX_LENGTH } from "./category-rules";
import { describeCategoryRefusal } from "./refusal";
import type { Translate } from "@/i18n/translate";

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
  .regex(/^[A-Za-z0-9_\-:.]{1,64}$/, "Validation.formOutOfDate");
// Messages are catalogue keys: validatedAction translates them into the merchant's language.
const nameField = z.string().trim().min(1, "Validation.nameRequired").max(CATEGORY_NAME_MAX_LENGTH, "Validation.nameTooLong");
const statusField = z.enum(["active", "inactive"], { error: "Validation.statusInvalid" });
/** "" and 0 mean top level. */
const parentField = z.preprocess(
  (value) => (value === "" || value === undefined || value === null ? 0 : value),
  z.coerce.number({ error: "Validation.parentInvalid" }).int("Validation.parentInvalid").min(0, "Validation.parentInvalid"),
);
const categoryIdField = z.coerce.number().int().positive("Validation.categoryGone");

const inFlight = new Map<string, Promise<ActionState>>();

function categoriesPath(storeId: number): string {
  return storeHref(storeId, "categories");
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
  write: (storeId: number, t: Translate) => Promise<string>,
): Promise<ActionState> {
  // A store this browser held but can no longer open (uninstalled, session ended): the form says the change was
  // not made and why, rather than the page turning into a 404 under the store's header.
  const lost = await lostAccess(storeIdParam);
  if (lost) {
    const t = (await getTranslations()) as Translate;
    const closed = isClosedStore(lost.reason);
    return {
      ok: false,
      message: closed
        ? t("LostAccess.actionNotDoneClosed", { name: `\u2068${lost.storeName}\u2069` })
        : t("LostAccess.actionNotDoneSignedOut"),
      reinstall: closed,
      values,
      idempotencyKey,
      resultId: globalThis.crypto.randomUUID(),
    };
  }
  const { storeId } = await requireStore(storeIdParam);
  // The body is part of the key: only true copies are joined; a different body with a reused key is the platform's to refuse.
  const flightKey = `${storeId}:${idempotencyKey}:${JSON.stringify(values)}`;
  const running = inFlight.get(flightKey);
  if (running) return running;
  const attempt = (async (): Promise<ActionState> => {
    const t = (await getTranslations()) as Translate;
    try {
      const message = await write(storeId, t);
      revalidatePath(categoriesPath(storeId));
      return { ok: true, message, idempotencyKey: newIdempotencyKey("ui") };
    } catch (error) {
      if (!isPlatformError(error)) throw error;
      const described = describeCategoryRefusal(error, t);
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
    writeToPlatform(input.storeId, input.idempotencyKey, formValues(formData), async (storeId, t) => {
      const platform = interactivePlatform(storeId);
      const created = await platform.categories.create(
        { name: input.name, status: input.status, parentId: input.parentId === 0 ? null : input.parentId },
        { idempotencyKey: input.idempotencyKey },
      );
      return t("Categories.created", { name: created.name });
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
      const t = await getTranslations();
      return { ok: true, message: t("Categories.unchanged"), idempotencyKey: input.idempotencyKey };
    }
    return writeToPlatform(input.storeId, input.idempotencyKey, formValues(formData), async (storeId, t) => {
      const platform = interactivePlatform(storeId);
      const updated = await platform.categories.update(input.categoryId, patch, { idempotencyKey: input.idempotencyKey });
      return t("Categories.saved", { name: updated.name });
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
    writeToPlatform(input.storeId, input.idempotencyKey, formValues(formData), async (storeId, t) => {
      const platform = interactivePlatform(storeId);
      await platform.categories.delete(input.categoryId, { idempotencyKey: input.idempotencyKey });
      return input.name ? t("Categories.deleted", { name: input.name }) : t("Categories.deletedUnnamed");
    }),
);

export const reorderCategories = validatedAction(
  z.object({
    storeId: storeIdField,
    idempotencyKey: idempotencyKeyField,
    /** Category ids of one level (the top level, or one parent's subcategories) in their new order. */
    ids: z
      .string()
      .regex(/^[1-9][0-9]*(,[1-9][0-9]*)*$/, "Validation.nothingToReorder")
      .transform((value) => value.split(",").map(Number))
      .refine((ids) => new Set(ids).size === ids.length, "Validation.duplicateInOrder"),
  }),
  async (input, formData) =>
    writeToPlatform(input.storeId, input.idempotencyKey, formValues(formData), async (storeId) => {
      const platform = interactivePlatform(storeId);
      await platform.categories.reorder(
        input.ids.map((id) => ({ id })),
        { idempotencyKey: input.idempotencyKey },
      );
      // The list that sent this names the category it moved, and says so itself (it knows which one).
      return "";
    }),
);
