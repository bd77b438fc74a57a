import "server-only";

/**
 * The one error type the platform boundary throws. Pages and actions branch on its predicates, never on raw
 * statuses or response shapes. Its message is safe to show a merchant and to log: it never carries a token.
 */

export type PlatformErrorKind =
  /** The REST API answered with an error envelope. */
  | "api"
  /** The token endpoint answered `{ error, error_description }`. */
  | "oauth"
  /** No answer: connection refused or dropped, DNS, timeout. */
  | "network"
  /** Refused by this app before any network call (closed endpoint, install not usable, bad input). */
  | "local"
  /** The platform answered something we could not understand (not JSON, wrong shape). */
  | "protocol";

export type PlatformErrorInit = {
  kind: PlatformErrorKind;
  status: number | null;
  code: string;
  message: string;
  requestId?: string | null;
  /** Seconds to wait before trying again, from `Retry-After` / `error.retry_after`. */
  retryAfter?: number | null;
  /** Field-level validation details when the platform gives them. */
  fieldErrors?: Record<string, string[]>;
  /** Attempts made before giving up (1 when not retried). */
  attempts?: number;
  cause?: unknown;
};

export const INSTALL_STATE_CODES = ["app_uninstalled", "app_suspended", "app_not_approved", "app_plan_required"] as const;
export type InstallStateCode = (typeof INSTALL_STATE_CODES)[number];

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly status: number | null;
  readonly code: string;
  readonly requestId: string | null;
  readonly retryAfter: number | null;
  readonly fieldErrors: Record<string, string[]>;
  readonly attempts: number;

  constructor(init: PlatformErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "PlatformError";
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.fieldErrors = init.fieldErrors ?? {};
    this.attempts = init.attempts ?? 1;
  }

  /** 429 from any bucket, or this app's own pacing refusing to wait longer: wait `retryAfter` seconds. */
  get isRateLimited(): boolean {
    return this.status === 429 || this.code === "rate_budget_exhausted";
  }

  /** Worth trying again later with the same idempotency key: 429, 5xx (502 gateway included), no answer. */
  get isRetryable(): boolean {
    return (
      this.status === 429 ||
      (this.status !== null && this.status >= 500) ||
      this.kind === "network" ||
      this.code === "rate_budget_exhausted"
    );
  }

  /** The token no longer works (401) or the install is gone: the merchant must install the app again. */
  get needsReinstall(): boolean {
    return (
      (this.kind === "api" && this.status === 401) ||
      this.code === "app_uninstalled" ||
      this.code === "revoked" ||
      this.code === "install_inactive"
    );
  }

  /** A 403 that records a state of the install (suspended, plan too low, ...). */
  get installStateCode(): InstallStateCode | null {
    return (INSTALL_STATE_CODES as readonly string[]).includes(this.code) ? (this.code as InstallStateCode) : null;
  }

  /** 402: an empty messaging wallet or a monthly quota. Retrying does not help. */
  get isPaymentRequired(): boolean {
    return this.status === 402;
  }

  /** Same as isPaymentRequired, named for the two codes it covers (`no_credit`, `quota_exceeded`). */
  get isNoCreditOrQuota(): boolean {
    return this.status === 402 || this.code === "no_credit" || this.code === "quota_exceeded";
  }

  /** Invalid input: the platform's 422 field checks, or input this app refused before calling. */
  get isValidation(): boolean {
    return this.code === "validation_error" || this.code === "invalid_parent" || this.code === "invalid_input";
  }

  /** An endpoint apps may not call (keys, webhooks, change log, AI generation), refused locally or by the platform. */
  get isClosedEndpoint(): boolean {
    return this.code === "closed_endpoint" || (this.status === 403 && this.message === "Apps cannot use this endpoint");
  }

  /** A 403 for a scope the merchant did not grant: installing again with the scope fixes it. */
  get isMissingScope(): boolean {
    return this.status === 403 && this.code === "forbidden" && this.message.startsWith("Missing scope");
  }

  /** Fields safe to log or return to a page: no stack, no cause, never a token. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      status: this.status,
      code: this.code,
      message: this.message,
      requestId: this.requestId,
      retryAfter: this.retryAfter,
      fieldErrors: this.fieldErrors,
      attempts: this.attempts,
    };
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
}

export function isPlatformError(error: unknown): error is PlatformError {
  return error instanceof PlatformError;
}
