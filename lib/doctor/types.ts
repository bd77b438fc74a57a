/** One line of `npm run doctor`. */
export type CheckStatus = "pass" | "fail" | "warn" | "skip";

export type CheckResult = {
  /** Stable identifier, e.g. "env.SVC_CLIENT_ID", "webhook-url", "database.migrations". */
  id: string;
  /** What was checked, as printed. */
  title: string;
  status: CheckStatus;
  /** The verdict in one sentence. Never carries a secret's value. */
  detail: string;
  /** What to do about a failure or a warning. */
  fix?: string;
};

export type DoctorReport = {
  ok: boolean;
  checks: CheckResult[];
  /** The platform's hosts are on this machine (the emulator): the real console's rules were only warnings. */
  localPlatform?: boolean;
};
