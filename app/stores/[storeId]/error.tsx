"use client";

import { ErrorPanel } from "@/components/error-panel";
import { useT } from "@/components/i18n/client-messages";

/**
 * Last line for a store page that failed in a way it did not catch itself. The thrown error is never displayed:
 * in production it arrives redacted anyway, and its digest is enough to find the server's log line. Its texts
 * come from the store layout (ClientMessages), which stays rendered around it.
 */
export default function StoreError({ error, retry }: { error: unknown; retry: () => void }) {
  const t = useT();
  const digest = error && typeof error === "object" && "digest" in error ? String((error as { digest?: unknown }).digest ?? "") : "";
  return (
    <ErrorPanel title={t("Errors.pageTitle")} message={t("Errors.pageMessage")} labels={{ tryAgain: t("Errors.tryAgain") }}>
      <button type="button" onClick={() => retry()} className="button-primary">
        {t("Errors.tryAgain")}
      </button>
      {digest ? <span className="text-xs text-slate-600">{t("Errors.reference", { digest })}</span> : null}
    </ErrorPanel>
  );
}
