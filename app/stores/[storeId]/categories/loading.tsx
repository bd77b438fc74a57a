import { getUi } from "@/i18n/server";

/**
 * Only the categories page waits on the platform, so only it streams behind a skeleton. A loading boundary higher
 * up would wrap the order page too, and a notFound() inside a boundary that has started streaming answers 200: an
 * unknown order must answer 404.
 */
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
