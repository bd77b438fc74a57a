import type { Locale } from "./locales";
import en from "@/messages/en.json";

/** The catalogue's shape, from the English file (the reference every other locale must match). */
export type Messages = typeof en;

/** One dynamic import per locale, so a request loads only its own catalogue. */
const LOADERS: Record<Locale, () => Promise<Messages>> = {
  ar: async () => (await import("@/messages/ar.json")).default as Messages,
  fr: async () => (await import("@/messages/fr.json")).default as Messages,
  en: async () => en,
};

export function loadMessages(locale: Locale): Promise<Messages> {
  return LOADERS[locale]();
}
