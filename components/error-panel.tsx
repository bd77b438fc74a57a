/**
 * The friendly face of a failure: a sentence, what to do, and a way to try again. Used by pages that catch a
 * PlatformError and by the error boundary; it never shows a stack or a raw platform response. It is rendered on
 * both sides (the boundary is a client component), so its words arrive translated, as `labels`.
 */
export type ErrorPanelLabels = { tryAgain: string; reinstall?: string; requestId?: string };

export function ErrorPanel({
  title,
  message,
  labels,
  retryHref,
  reinstall,
  children,
}: {
  title: string;
  message: string;
  labels: ErrorPanelLabels;
  retryHref?: string;
  reinstall?: boolean;
  children?: React.ReactNode;
}) {
  return (
    <section role="alert" aria-labelledby="error-panel-title" className="rounded-lg border border-rose-200 bg-white p-6 shadow-sm">
      <h2 id="error-panel-title" className="text-lg font-semibold text-rose-900">
        {title}
      </h2>
      <p className="mt-2 text-slate-700">{message}</p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {retryHref ? (
          <a
            href={retryHref}
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
          >
            {labels.tryAgain}
          </a>
        ) : null}
        {children}
        {reinstall && labels.reinstall ? (
          <a href="/install" className="text-sm font-medium text-slate-900 underline underline-offset-2">
            {labels.reinstall}
          </a>
        ) : null}
      </div>
      {labels.requestId ? <p className="mt-4 text-xs text-slate-600">{labels.requestId}</p> : null}
    </section>
  );
}
