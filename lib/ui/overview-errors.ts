import type { PlatformError } from "@/lib/platform";
import { overviewText } from "@/lib/ui/overview-text";

/** Why the overview has no figures, as a sentence with what to do, and which way out the panel offers. */
export type OverviewRefusal = { message: string; retry: boolean; reinstall: boolean; requestId: string | null };

const text = overviewText.errors;

function waitFor(seconds: number | null): string {
  if (!seconds || seconds <= 0) return text.waitMoment;
  if (seconds < 90) return text.waitSeconds(Math.ceil(seconds));
  return text.waitMinutes(Math.ceil(seconds / 60));
}

export function describeOverviewError(error: PlatformError): OverviewRefusal {
  const base = { retry: false, reinstall: false, requestId: error.requestId };
  if (error.isRateLimited) {
    const wait = waitFor(error.retryAfter);
    return { ...base, retry: true, message: error.code === "too_many_concurrent" ? text.busy(wait) : text.rateLimited(wait) };
  }
  if (error.status === 402) return { ...base, message: error.code === "no_credit" ? text.noCredit : text.quota };
  if (error.needsReinstall) return { ...base, reinstall: true, message: text.reinstall };
  switch (error.installStateCode) {
    case "app_suspended":
      return { ...base, message: text.suspended };
    case "app_plan_required":
      return { ...base, retry: true, message: text.planRequired };
    case "app_not_approved":
      return { ...base, message: text.notApproved };
    default:
      break;
  }
  if (error.isMissingScope) return { ...base, reinstall: true, message: text.missingScope };
  if (error.status === 403) return { ...base, reinstall: true, message: text.forbidden };
  if (error.status === 400 || error.kind === "local") return { ...base, message: text.periodRefused };
  if (error.kind === "protocol") return { ...base, retry: true, message: text.unreadable };
  if (error.isRetryable) return { ...base, retry: true, message: text.unavailable };
  return { ...base, retry: true, message: text.other };
}
