/**
 * Why an install did not complete, as a short code carried in the failure page's query string. Only the code
 * travels: the page turns it into text, so nothing the platform or an attacker sent is ever echoed back.
 */
export const FAILURE_REASONS = {
  access_denied: {
    title: "You declined the install",
    detail: "Nothing was installed and nothing changed on your stores. You can start again whenever you are ready.",
  },
  invalid_scope: {
    title: "The app asked for permissions the platform does not allow",
    detail: "The platform refused the requested scopes. The app's operator should check SVC_SCOPES against the scopes registered in the developer console.",
  },
  invalid_request: {
    title: "The platform refused the install request",
    detail: "The request to the consent screen was malformed. Starting again creates a fresh one.",
  },
  unsupported_response_type: {
    title: "The platform refused the install request",
    detail: "The consent screen did not accept the kind of answer the app asked for. Starting again creates a fresh request.",
  },
  authorize_error: {
    title: "The consent screen answered with an error",
    detail: "The platform could not complete the consent. Nothing was installed; start again in a moment.",
  },
  missing_state: {
    title: "The answer from the platform could not be checked",
    detail: "It arrived without its security check value, so the app ignored it. Nothing was installed.",
  },
  state_mismatch: {
    title: "This answer does not belong to your install",
    detail: "Its security check does not match the install started in this browser, so the app ignored it. Nothing was installed.",
  },
  expired: {
    title: "This install is no longer in progress",
    detail: "Installs must be completed within 10 minutes, in the browser that started them, and only once. Nothing new was installed.",
  },
  missing_code: {
    title: "The answer from the platform was incomplete",
    detail: "It carried no valid approval code, so the app could not finish the install. Nothing was installed.",
  },
  invalid_grant: {
    title: "The approval could not be used",
    detail: "The approval code was invalid, expired or already used. Each approval works once, within 10 minutes; start again for a new one.",
  },
  no_store_installed: {
    title: "None of the selected stores could be installed",
    detail: "The platform checked each store again and none could take the app (for example its plan is below the app's minimum). Nothing was installed.",
  },
  invalid_client: {
    title: "The platform did not recognise this app",
    detail: "The app's credentials were refused. The app's operator should check SVC_CLIENT_ID and SVC_CLIENT_SECRET.",
  },
  unsupported_grant_type: {
    title: "The platform refused the app's request",
    detail: "The token request was of a kind the platform does not support. The app's operator should check the platform version.",
  },
  server_error: {
    title: "The platform could not complete the install",
    detail: "The platform had a problem on its side. The approval cannot be reused; start again in a moment.",
  },
  rate_limited: {
    title: "Too many install attempts",
    detail: "The platform limits how often installs can be started and completed. Wait a minute or two, then start again.",
  },
  blocked: {
    title: "The platform refused the connection",
    detail: "The platform's gateway rejected the app's request. The app's operator should check the app's outgoing requests.",
  },
  network: {
    title: "The platform could not be reached",
    detail: "The app could not connect to the platform to finish the install. Start again in a moment.",
  },
  protocol: {
    title: "The platform answered something unexpected",
    detail: "The app could not understand the platform's answer, so it stored nothing. Start again in a moment.",
  },
  store_failed: {
    title: "The install could not be saved",
    detail: "The platform approved the install but the app could not record it. Start again to finish it.",
  },
} as const satisfies Record<string, { title: string; detail: string }>;

export type FailureReason = keyof typeof FAILURE_REASONS;

export function isFailureReason(value: unknown): value is FailureReason {
  return typeof value === "string" && Object.hasOwn(FAILURE_REASONS, value);
}

/** The text for a reason code from a query string; anything unknown gets a generic message. */
export function describeFailure(value: unknown): { reason: FailureReason | null; title: string; detail: string } {
  if (isFailureReason(value)) return { reason: value, ...FAILURE_REASONS[value] };
  return {
    reason: null,
    title: "The install did not complete",
    detail: "Something went wrong before the app could finish the install. Nothing was changed; start again.",
  };
}
