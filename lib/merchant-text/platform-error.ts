import type { Translate } from "@/lib/language";
import type { PlatformError } from "@/lib/platform";
import { scopeLabel } from "./scope";

/**
 * PlatformError -> what the merchant reads, in their language, on any page: a sentence that says what happened
 * and what to do, and which way out the page offers. Nothing here ever includes a stack, a token or the
 * platform's own text. A page or form with refusals of its own (the categories form's field checks) handles
 * those first, beside its route, and hands the rest here.
 */
export type PlatformRefusal = {
  message: string;
  /**
   * The same request may succeed later (a limit, an outage, an answer that could not be read, a plan since
   * upgraded): a page offers "Try again", a form keeps its idempotency key.
   */
  retryable: boolean;
  /** Seconds to wait before trying again, when the platform said. */
  retryAfter?: number;
  /** The fix is to install the app again (the page links to /install). */
  reinstall: boolean;
  /** The platform's request id, for the merchant to quote to support. */
  requestId: string | null;
};

const MISSING_SCOPE = "Missing scope:";

/** The scope a 403 names ("Missing scope: orders:read"), or null when it is not a missing scope or names none. */
export function missingScope(error: PlatformError): string | null {
  if (!error.isMissingScope) return null;
  return error.message.slice(MISSING_SCOPE.length).trim() || null;
}

export function waitPhrase(seconds: number | null | undefined, t: Translate): string {
  if (!seconds || seconds <= 0) return t("Platform.waitMoment");
  if (seconds < 90) return t("Platform.waitSeconds", { seconds: Math.ceil(seconds) });
  return t("Platform.waitMinutes", { minutes: Math.ceil(seconds / 60) });
}

export function describePlatformError(error: PlatformError, t: Translate): PlatformRefusal {
  const refusal = (message: string, more: Partial<PlatformRefusal> = {}): PlatformRefusal => ({
    message,
    retryable: false,
    reinstall: false,
    requestId: error.requestId,
    ...more,
  });
  if (error.isRateLimited) {
    const wait = waitPhrase(error.retryAfter, t);
    const message = error.code === "too_many_concurrent" ? t("Platform.busy", { wait }) : t("Platform.rateLimited", { wait });
    return refusal(message, { retryable: true, retryAfter: error.retryAfter ?? undefined });
  }
  if (error.needsReinstall) return refusal(t("Platform.reinstall"), { reinstall: true });
  switch (error.installStateCode) {
    case "app_suspended":
      return refusal(t("Platform.suspended"));
    case "app_plan_required":
      return refusal(t("Platform.planRequired"), { retryable: true });
    case "app_not_approved":
      return refusal(t("Platform.notApproved"));
    default:
      break;
  }
  if (error.isPaymentRequired) return refusal(error.code === "no_credit" ? t("Platform.noCredit") : t("Platform.quota"));
  const scope = missingScope(error);
  if (scope) return refusal(t("Platform.missingScope", { permission: scopeLabel(scope, t) }), { reinstall: true });
  if (error.status === 403) return refusal(t("Platform.forbidden"), { reinstall: true });
  if (error.isNotFound) return refusal(t("Platform.notFound"));
  if (error.kind === "protocol") return refusal(t("Platform.unreadable"), { retryable: true });
  if (error.isRetryable) return refusal(t("Platform.unavailable"), { retryable: true });
  // Our own refusals (bad input caught before sending, an unreadable token) explain themselves in the log.
  if (error.kind === "local") return refusal(t("Platform.local"));
  return refusal(t("Platform.refused", { reason: error.code || String(error.status ?? "?") }));
}
