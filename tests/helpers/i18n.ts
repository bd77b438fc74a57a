import { createTranslator } from "next-intl";
import type { Locale } from "@/i18n/locales";
import type { Translate } from "@/i18n/translate";
import ar from "@/messages/ar.json";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";

export const CATALOGUES = { ar, fr, en } as const;

/** The same translator the pages get from next-intl, over one locale's real catalogue. */
export function translator(locale: Locale = "en"): Translate {
  return createTranslator({ locale, messages: CATALOGUES[locale] as typeof en }) as unknown as Translate;
}
