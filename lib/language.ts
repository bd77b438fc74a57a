/**
 * The languages the merchant UI speaks and the shape of a translator, below i18n/: lib/env.ts validates
 * DEFAULT_LOCALE against these codes and lib/ turns codes into words through a Translate it is handed, while i18n/
 * (which reads lib/env.ts) builds the translators. Adding a locale starts here (docs/languages.md).
 */
export const LOCALES = ["ar", "fr", "en"] as const;
export type Locale = (typeof LOCALES)[number];

/** A translator over the whole catalogue: next-intl's `t` on the server, `useT` in client components. */
export type Translate = (key: string, values?: Record<string, string | number | Date>) => string;
