import type { Locale } from "./locales";
import en from "@/messages/en.json";

/** The catalogue's shape, from the English file (the reference every other locale must match). */
export type Messages = typeof en;

/** One dynamic import per locale, so a request loads only its own catalogue. */
export async function loadMessages(locale: Locale): Promise<Messages> {
  switch (locale) {
    case "ar":
      return (await import("@/messages/ar.json")).default as Messages;
    case "fr":
      return (await import("@/messages/fr.json")).default as Messages;
    default:
      return en;
  }
}
