import type { Translate } from "@/i18n/translate";
import { installStateNotice } from "@/lib/installs/state";

const TONES = {
  danger: "border-rose-300 bg-rose-50 text-rose-950",
  warning: "border-amber-300 bg-amber-50 text-amber-950",
  info: "border-sky-300 bg-sky-50 text-sky-950",
} as const;

/** Nothing for an active install; otherwise what the state means and what the merchant can do about it. */
export function InstallBanner({ state, storeName, t }: { state: string; storeName: string; t: Translate }) {
  const notice = installStateNotice(state);
  if (!notice) return null;
  return (
    <div role="status" data-install-state={state} className={`rounded-lg border px-4 py-3 ${TONES[notice.tone]}`}>
      <p className="font-semibold">
        {t(notice.title)}{" "}
        <span className="sr-only" dir="auto">
          ({storeName})
        </span>
      </p>
      <p className="mt-1 text-sm">{t(notice.body)}</p>
      {notice.action ? (
        <a
          href={notice.action.href}
          className="mt-2 inline-block rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
        >
          {t(notice.action.label)}
        </a>
      ) : null}
    </div>
  );
}
