import ar from "@/messages/ar.json";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { LOCALES, type Locale } from "./locales";
import type { Messages } from "./messages";

/**
 * Every catalogue at hand, for answers that are not pages: the proxy refuses a request before any page or
 * next-intl request configuration runs, in plain text. Typed by locale, so a new locale without its catalogue
 * here does not compile. (Pages load only their own catalogue: i18n/messages.ts.)
 */
export const CATALOGUES: Record<Locale, Messages> = { ar: ar as Messages, fr: fr as Messages, en };

/** A plain message (no placeholders) by its full key, in one locale. */
export function plainMessage(locale: Locale, key: string): string {
  const found = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], CATALOGUES[locale]);
  if (typeof found !== "string") throw new Error(`No plain message ${key} in ${locale}`);
  return found;
}

/**
 * The proxy's refusal of a state-changing request sent by another site: in the merchant's language first, then
 * in the others, since the page that sent it may be anyone's.
 */
export function crossSiteRefusal(preferred: Locale): string {
  const order = [preferred, ...LOCALES.filter((locale) => locale !== preferred)];
  return order.map((locale) => plainMessage(locale, "Security.crossSiteRefused")).join("\n\n");
}
