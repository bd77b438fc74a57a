import { getUi } from "@/i18n/server";

export default async function Loading() {
  const { t } = await getUi();
  return (
    <div role="status" aria-live="polite" className="space-y-3">
      <span className="sr-only">{t("Shell.loading")}</span>
      <div className="h-8 w-48 max-w-full animate-pulse rounded bg-slate-200" />
      <div className="h-40 animate-pulse rounded-lg bg-slate-200" />
    </div>
  );
}
