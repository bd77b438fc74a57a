/**
 * The friendly face of a failure: a sentence, what to do, and a way to try again. Used by pages that catch a
 * PlatformError and by the error boundary; it never shows a stack or a raw platform response. It is rendered on
 * both sides (the boundary is a client component), so its words arrive translated, as `labels`. Its look is the
 * `error-panel` rule of app/globals.css: as part of the boundary it is in every store page's first-load JavaScript,
 * where Tailwind class strings would be most of its bytes.
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
    <section role="alert" aria-labelledby="error-panel-title" className="error-panel">
      <h2 id="error-panel-title">{title}</h2>
      <p>{message}</p>
      <div>
        {retryHref ? (
          <a href={retryHref} className="button-primary">
            {labels.tryAgain}
          </a>
        ) : null}
        {children}
        {reinstall && labels.reinstall ? (
          <a href="/install" className="text-sm font-medium underline underline-offset-2">
            {labels.reinstall}
          </a>
        ) : null}
      </div>
      {labels.requestId ? <p className="mt-4 text-xs text-slate-600">{labels.requestId}</p> : null}
    </section>
  );
}
