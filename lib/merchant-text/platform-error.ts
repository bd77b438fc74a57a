import type { Translate } from "@/i18n/translate";
import type { PlatformError } from "@/lib/platform";

/**
 * PlatformError -> what the merchant reads, in their language. Every refusal the spec lists gets a sentence that
 * says what happened and what to do; nothing here ever includes a stack, a token or a raw response body. The
 * one text passed through from the platform is a validation detail it writes for the field (in English).
 */
export type MerchantError = {
  message: string;
  /** Per form field (the form's own field names, not the platform's). */
  fieldErrors?: Record<string, string[]>;
  /** Seconds to wait before trying again, when the platform said. */
  retryAfter?: number;
  /** The fix is to install the app again (link to /install). */
  reinstall?: boolean;
  /** The thing acted on is gone (someone else deleted it): the list should be reloaded. */
  gone?: boolean;
  /** Same request, same idempotency key, later: may succeed (429, 5xx, no answer). */
  retryable: boolean;
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

export function waitPhrase(seconds: number | null | undefined, t: Translate): string {
  if (!seconds || seconds <= 0) return t("Platform.waitMoment");
  if (seconds < 90) return t("Platform.waitSeconds", { seconds: Math.ceil(seconds) });
  return t("Platform.waitMinutes", { minutes: Math.ceil(seconds / 60) });
}

export function describePlatformError(error: PlatformError, t: Translate): MerchantError {
  if (error.isRateLimited) {
    const retryAfter = error.retryAfter ?? undefined;
    const what = error.code === "too_many_concurrent" ? t("Platform.busy") : t("Platform.rateLimited");
    return { message: `${what} ${waitPhrase(retryAfter, t)}`, retryAfter, retryable: true };
  }
  if (error.needsReinstall) {
    return { message: t("Platform.reinstall"), reinstall: true, retryable: false };
  }
  switch (error.installStateCode) {
    case "app_suspended":
      return { message: t("Platform.suspended"), retryable: false };
    case "app_plan_required":
      return { message: t("Platform.planRequired"), retryable: false };
    case "app_not_approved":
      return { message: t("Platform.notApproved"), retryable: false };
    default:
      break;
  }
  if (error.code === "category_not_empty") {
    return { message: t("Platform.notEmpty"), retryable: false };
  }
  if (error.code === "invalid_parent") {
    return {
      message: t("Platform.invalidParent"),
      fieldErrors: { ...formFieldErrors(error.fieldErrors), parentId: [t("Platform.invalidParentField")] },
      retryable: false,
    };
  }
  if (error.code === "validation_error") {
    const fieldErrors = formFieldErrors(error.fieldErrors);
    return {
      message: fieldErrors ? t("Platform.fieldsRefused") : t("Platform.valuesRefused", { detail: sentence(error.message) }),
      fieldErrors,
      retryable: false,
    };
  }
  if (error.status === 413) {
    return { message: t("Platform.tooLarge"), fieldErrors: { name: [t("Platform.tooLargeField")] }, retryable: false };
  }
  if (error.isNotFound) {
    return { message: t("Platform.gone"), gone: true, retryable: false };
  }
  if (error.code === "idempotency_key_reuse") {
    return { message: t("Platform.keyReuse"), retryable: false };
  }
  if (error.isPaymentRequired) {
    return { message: t("Platform.quota"), retryable: false };
  }
  if (error.status === 403) {
    return { message: t("Platform.forbidden"), reinstall: true, retryable: false };
  }
  if (error.isRetryable) {
    return { message: t("Platform.unavailable"), retryable: true };
  }
  if (error.kind === "local") {
    // Our own refusals (bad input caught before sending, an unreadable token) explain themselves in the log.
    return { message: t("Platform.local"), retryable: false };
  }
  return { message: t("Platform.refused", { reason: error.code || String(error.status ?? "?") }), retryable: false };
}
