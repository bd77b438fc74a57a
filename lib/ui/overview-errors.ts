import type { Translate } from "@/i18n/translate";
import type { PlatformError } from "@/lib/platform";

/** Why the overview has no figures, as a sentence with what to do, and which way out the panel offers. */
export type OverviewRefusal = { message: string; retry: boolean; reinstall: boolean; requestId: string | null };

function waitFor(seconds: number | null, t: Translate): string {
  if (!seconds || seconds <= 0) return t("Overview.errors.waitMoment");
  if (seconds < 90) return t("Overview.errors.waitSeconds", { seconds: Math.ceil(seconds) });
  return t("Overview.errors.waitMinutes", { minutes: Math.ceil(seconds / 60) });
}

export function describeOverviewError(error: PlatformError, t: Translate): OverviewRefusal {
  const base = { retry: false, reinstall: false, requestId: error.requestId };
  if (error.isRateLimited) {
    const wait = waitFor(error.retryAfter, t);
    return {
      ...base,
      retry: true,
      message: error.code === "too_many_concurrent" ? t("Overview.errors.busy", { wait }) : t("Overview.errors.rateLimited", { wait }),
    };
  }
  if (error.status === 402) return { ...base, message: error.code === "no_credit" ? t("Overview.errors.noCredit") : t("Overview.errors.quota") };
  if (error.needsReinstall) return { ...base, reinstall: true, message: t("Overview.errors.reinstall") };
  switch (error.installStateCode) {
    case "app_suspended":
      return { ...base, message: t("Overview.errors.suspended") };
    case "app_plan_required":
      return { ...base, retry: true, message: t("Overview.errors.planRequired") };
    case "app_not_approved":
      return { ...base, message: t("Overview.errors.notApproved") };
    default:
      break;
  }
  if (error.isMissingScope) return { ...base, reinstall: true, message: t("Overview.errors.missingScope") };
  if (error.status === 403) return { ...base, reinstall: true, message: t("Overview.errors.forbidden") };
  if (error.status === 400 || error.kind === "local") return { ...base, message: t("Overview.errors.periodRefused") };
  if (error.kind === "protocol") return { ...base, retry: true, message: t("Overview.errors.unreadable") };
  if (error.isRetryable) return { ...base, retry: true, message: t("Overview.errors.unavailable") };
  return { ...base, retry: true, message: t("Overview.errors.other") };
}
