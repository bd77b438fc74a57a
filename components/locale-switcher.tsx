import { LOCALE_NAMES, LOCALES } from "@/i18n/locales";
import type { Ui } from "@/i18n/server";

/**
 * The language switcher: one form, a button per language, no client code (it works before and without JavaScript).
 * Each name is written in its own language and marked with its lang, so a screen reader pronounces it right.
 * `action` is app/actions/locale.ts's switchLocale, handed in by the page (components/ never imports from app/).
 * On phones each button is a 44 px target. The caller hands in its own locale and translator: a synchronous
 * component renders with its parent, where an async one costs the render a task and a chunk of its own.
 */
export function LocaleSwitcher({ action, locale, t }: { action: (formData: FormData) => Promise<void> } & Pick<Ui, "locale" | "t">) {
  return (
    <form action={action} aria-label={t("Shell.language")} className="flex items-center gap-0.5 text-xs">
      {LOCALES.map((code) => (
        <button
          key={code}
          type="submit"
          name="locale"
          value={code}
          lang={code}
          aria-current={code === locale ? "true" : undefined}
          className="locale-button"
        >
          {LOCALE_NAMES[code]}
        </button>
      ))}
    </form>
  );
}
