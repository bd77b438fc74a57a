import { isLocale, type Locale } from "./locales";

/**
 * Accept-Language -> the best locale we have, or null. Tags are tried by weight (q), and each by its language
 * alone too ("fr-CA" reads French, "ar-DZ" Arabic); q=0 means "not this one".
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | null {
  if (!acceptLanguage) return null;
  const ranked = acceptLanguage
    .split(",")
    .slice(0, 32)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { language: tag.trim().toLowerCase().split("-")[0] ?? "", weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    if (isLocale(entry.language)) return entry.language;
    if (entry.language === "*") return null;
  }
  return null;
}

/** The merchant's choice (cookie) first, then the browser's languages, then the app's default. */
export function resolveLocale(input: { cookie: string | undefined; acceptLanguage: string | null; fallback: Locale }): Locale {
  if (isLocale(input.cookie)) return input.cookie;
  return negotiateLocale(input.acceptLanguage) ?? input.fallback;
}
