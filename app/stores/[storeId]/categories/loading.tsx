import { getUi } from "@/i18n/server";
import { CATEGORIES_SPACE } from "./space";

/**
 * Only the categories page waits on the platform, so only it streams behind a skeleton. A loading boundary higher
 * up would wrap the order page too, and a notFound() inside a boundary that has started streaming answers 200: an
 * unknown order must answer 404.
 * The skeleton and the page it gives way to take the same space (CATEGORIES_SPACE, at least a screen high), so the
 * footer below them is out of sight in both and nothing visible moves when the content streams in: Lighthouse
 * measured a layout shift of 0.09 to 0.12 on a phone when the skeleton was shorter than the page.
 */
export default async function Loading() {
  const { t } = await getUi();
  return (
    <div role="status" aria-live="polite" className={`space-y-3 ${CATEGORIES_SPACE}`}>
      <span className="sr-only">{t("Shell.loading")}</span>
      <div className="h-8 w-48 max-w-full animate-pulse rounded bg-slate-200" />
      <div className="h-40 animate-pulse rounded-lg bg-slate-200" />
    </div>
  );
}
