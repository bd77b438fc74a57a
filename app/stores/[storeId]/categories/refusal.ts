import type { Translate } from "@/i18n/translate";
import type { PlatformError } from "@/lib/platform";
import { describePlatformError, type PlatformRefusal } from "@/lib/merchant-text/platform-error";

/**
 * The categories form's own reading of a refusal: the platform's field checks land on the form's fields, and the
 * refusals only a category write meets (not empty, bad parent, too large, deleted meanwhile, a reused form) say
 * so in the form's words. Everything else (limits, outages, install states, a missing permission) reads as on
 * any page. The one text passed through from the platform is a validation detail it writes (in English).
 */
export type CategoryRefusal = PlatformRefusal & {
  /** Per form field (the form's own field names, not the platform's). */
  fieldErrors?: Record<string, string[]>;
  /** The category acted on is gone (someone else deleted it): the list should be reloaded. */
  gone?: boolean;
};

/** Platform field names as they appear in validation details -> this app's form field names. */
const FIELD_NAMES: Record<string, string> = {
  name: "name",
  status: "status",
  parent_id: "parentId",
  parentId: "parentId",
  sort_order: "order",
  categories: "order",
};

function formFieldErrors(details: Record<string, string[]>): Record<string, string[]> | undefined {
  const entries = Object.entries(details).filter(([, messages]) => messages.length > 0);
  if (entries.length === 0) return undefined;
  const mapped: Record<string, string[]> = {};
  for (const [field, messages] of entries) {
    const name = FIELD_NAMES[field] ?? FIELD_NAMES[field.split(".")[0] ?? ""] ?? "form";
    (mapped[name] ??= []).push(...messages.map(sentence));
  }
  return mapped;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

export function describeCategoryRefusal(error: PlatformError, t: Translate): CategoryRefusal {
  const refusal = (message: string, more: Partial<CategoryRefusal> = {}): CategoryRefusal => ({
    message,
    retryable: false,
    reinstall: false,
    requestId: error.requestId,
    ...more,
  });
  if (error.code === "category_not_empty") return refusal(t("CategoryRefusals.notEmpty"));
  if (error.code === "invalid_parent") {
    return refusal(t("CategoryRefusals.invalidParent"), {
      fieldErrors: { ...formFieldErrors(error.fieldErrors), parentId: [t("CategoryRefusals.invalidParentField")] },
    });
  }
  if (error.code === "validation_error") {
    const fieldErrors = formFieldErrors(error.fieldErrors);
    const message = fieldErrors ? t("CategoryRefusals.fieldsRefused") : t("CategoryRefusals.valuesRefused", { detail: sentence(error.message) });
    return refusal(message, { fieldErrors });
  }
  if (error.status === 413) return refusal(t("CategoryRefusals.tooLarge"), { fieldErrors: { name: [t("CategoryRefusals.tooLargeField")] } });
  if (error.isNotFound) return refusal(t("CategoryRefusals.gone"), { gone: true });
  if (error.code === "idempotency_key_reuse") return refusal(t("CategoryRefusals.keyReuse"));
  return describePlatformError(error, t);
}
