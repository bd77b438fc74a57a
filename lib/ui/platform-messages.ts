import type { PlatformError } from "@/lib/platform";

/**
 * PlatformError -> what the merchant reads. Every refusal the spec lists gets a sentence that says what happened
 * and what to do; nothing here ever includes a stack, a token or a raw response body.
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

export function waitPhrase(seconds: number | null | undefined): string {
  if (!seconds || seconds <= 0) return "Wait a moment, then try again.";
  if (seconds < 90) return `Wait ${Math.ceil(seconds)} second${Math.ceil(seconds) === 1 ? "" : "s"}, then try again.`;
  const minutes = Math.ceil(seconds / 60);
  return `Wait about ${minutes} minutes, then try again.`;
}

export function describePlatformError(error: PlatformError, subject = "category"): MerchantError {
  if (error.isRateLimited || error.code === "rate_budget_exhausted") {
    const retryAfter = error.retryAfter ?? undefined;
    const what =
      error.code === "too_many_concurrent"
        ? "The platform is busy with other operations on this store."
        : "The platform's request limit for this store is reached for this minute.";
    return { message: `${what} ${waitPhrase(retryAfter)}`, retryAfter, retryable: true };
  }
  if (error.needsReinstall) {
    return {
      message: "The platform no longer accepts this app's access to the store. Reinstall the app to continue.",
      reinstall: true,
      retryable: false,
    };
  }
  switch (error.installStateCode) {
    case "app_suspended":
      return { message: "The platform suspended this app; calls resume when the suspension is lifted.", retryable: false };
    case "app_plan_required":
      return { message: "This store's plan is below the app's minimum: upgrade the store's plan, then try again.", retryable: false };
    case "app_not_approved":
      return { message: "The app is awaiting the platform's approval and cannot change this store yet.", retryable: false };
    default:
      break;
  }
  if (error.code === "category_not_empty") {
    return {
      message: `This ${subject} still holds products or subcategories. Move or delete them first, then delete it.`,
      retryable: false,
    };
  }
  if (error.code === "invalid_parent") {
    const parentMessage =
      "Choose a top-level category of this store as the parent. A category that has subcategories cannot go under another one.";
    return {
      message: "The platform refused that parent.",
      fieldErrors: { ...formFieldErrors(error.fieldErrors), parentId: [parentMessage] },
      retryable: false,
    };
  }
  if (error.code === "validation_error") {
    const fieldErrors = formFieldErrors(error.fieldErrors);
    return {
      message: fieldErrors ? "The platform refused some values: see the highlighted fields." : `The platform refused these values: ${sentence(error.message)}`,
      fieldErrors,
      retryable: false,
    };
  }
  if (error.status === 413) {
    return {
      message: "That is too much data for one request: shorten the text (or change fewer categories at once) and try again.",
      fieldErrors: { name: ["Too long for the platform to accept."] },
      retryable: false,
    };
  }
  if (error.isNotFound) {
    return {
      message: `This ${subject} no longer exists: someone else may have deleted it. Reload the list to see the current ones.`,
      gone: true,
      retryable: false,
    };
  }
  if (error.code === "idempotency_key_reuse") {
    return { message: "This form was already used for a different change. Submit it again.", retryable: false };
  }
  if (error.isPaymentRequired) {
    return {
      message: "The store has used its monthly request quota on the platform; retrying will not help until it is raised.",
      retryable: false,
    };
  }
  if (error.status === 403) {
    return {
      message: "The app was not granted the permission this needs. Reinstall the app and approve product access.",
      reinstall: true,
      retryable: false,
    };
  }
  if (error.isRetryable) {
    return { message: "The platform is not answering properly right now. Try again in a moment.", retryable: true };
  }
  if (error.kind === "local") {
    return { message: sentence(error.message), retryable: false };
  }
  return { message: `The platform refused the request (${error.code || error.status || "unknown reason"}).`, retryable: false };
}
