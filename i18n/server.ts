import "server-only";
import { createTranslator } from "next-intl";
import { cache } from "react";
import { env } from "@/lib/env";
import { formatsFor, type Formats } from "@/i18n/format";
import { direction, type Locale } from "./locales";
import { loadMessages } from "./messages";
import { requestLocale } from "./request-locale";
import type { Rich, Translate } from "./translate";

export type Ui = { locale: Locale; dir: "rtl" | "ltr"; t: Translate; rich: Rich; format: Formats };

/**
 * One Ui per locale for the life of the process. next-intl's getTranslations builds a translator, and with it an
 * empty cache of parsed messages, for every request, so each page parsed every message it showed again (a few
 * dozen ICU parses and Intl locale lookups per request). The translator depends on nothing but the locale, its
 * catalogue and the stores' time zone, all fixed for the process, so it is made once and its cache kept.
 */
const uiByLocale = new Map<Locale, Promise<Ui>>();

function uiFor(locale: Locale): Promise<Ui> {
  let ui = uiByLocale.get(locale);
  if (!ui) {
    ui = loadMessages(locale).then((messages) => {
      const translator = createTranslator({ locale, messages, timeZone: env.STORE_TIME_ZONE });
      const translate = translator as Translate;
      // A message without values reads the same every time: looked up and formatted once, then a map's answer. A
      // key the catalogue lacks is not kept, so next-intl reports it on every use, as before.
      const plain = new Map<string, string>();
      // Messages with values: the same few (a store's name, a count, the time zone) come back on every page, so
      // their texts are kept too, by key and values, when the values are plain strings and numbers (a Date is
      // formatted fresh). Bounded: past a few thousand the memory starts over.
      let filled = new Map<string, string>();
      const t = Object.assign(
        (key: string, values?: Parameters<Translate>[1]) => {
          if (values) {
            const memo = memoKey(key, values);
            if (memo === null) return translate(key, values);
            let text = filled.get(memo);
            if (text === undefined) {
              text = translate(key, values);
              if (!translator.has(key as never)) return text;
              if (filled.size >= 4096) filled = new Map();
              filled.set(memo, text);
            }
            return text;
          }
          let text = plain.get(key);
          if (text === undefined) {
            text = translate(key);
            if (translator.has(key as never)) plain.set(key, text);
          }
          return text;
        },
        { raw: translator.raw },
      );
      return { locale, dir: direction(locale), t, rich: translator.rich as Rich, format: formatsFor(locale, env.STORE_TIME_ZONE) };
    });
    uiByLocale.set(locale, ui);
  }
  return ui;
}

/** The key of a message and its values, or null when a value is anything but a string or a number. */
function memoKey(key: string, values: NonNullable<Parameters<Translate>[1]>): string | null {
  for (const name in values) {
    const type = typeof values[name];
    if (type !== "string" && type !== "number") return null;
  }
  return `${key}${JSON.stringify(values)}`;
}

/**
 * What a server component needs to speak the merchant's language: the locale, a translator over the whole
 * catalogue (keys are written in full, "Orders.title", so the catalogue test can find every use) and formatters.
 */
export const getUi = cache(async (): Promise<Ui> => uiFor(await requestLocale()));

const pickedByLocale = new Map<string, Record<string, string>>();

/**
 * The raw text of a few messages, for client components (they get no catalogue: next-intl's client runtime would
 * cost more than the whole page's own code). Only `{name}` placeholders are allowed in them; `fill` replaces
 * those in the browser, so plurals and other ICU syntax stay on the server. The same keys give the same texts for
 * the process's life, so each list is picked once per locale.
 */
export async function clientMessages(keys: readonly string[]): Promise<Record<string, string>> {
  const { locale, t } = await getUi();
  const cacheKey = `${locale}\u0000${keys.join("\u0000")}`;
  const cached = pickedByLocale.get(cacheKey);
  if (cached) return cached;
  const raw = (t as unknown as { raw: (key: string) => unknown }).raw;
  const picked: Record<string, string> = {};
  for (const key of keys) {
    const text = raw(key);
    if (typeof text !== "string" || /\{\s*\w+\s*,/.test(text)) {
      throw new Error(`Message ${key} cannot be sent to the browser: it must be plain text with {name} placeholders only`);
    }
    picked[key] = text;
  }
  Object.freeze(picked);
  pickedByLocale.set(cacheKey, picked);
  return picked;
}
