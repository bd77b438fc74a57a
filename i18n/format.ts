import { INTL_LOCALE, type Locale } from "@/i18n/locales";

/**
 * Numbers, money and dates in the merchant's locale. Amounts are in dinars (the platform's stores are Algerian);
 * times are shown in the stores' time zone (STORE_TIME_ZONE), never the server's or the browser's, so a page
 * reads the same wherever it is hosted and opened. The zone is printed where a bare time could be misread.
 */
export type Formats = {
  dateTime(value: Date): string;
  /** With the zone's name ("UTC+1"): for a single time read on its own (an order's placement). */
  dateTimeWithZone(value: Date): string;
  /** The zone's short name, e.g. "UTC+1", for a table header or caption. */
  zoneName: string;
  money(value: string | null | undefined): string;
  number(value: number): string;
  /** "a, b and c" in the locale's words. */
  list(values: string[]): string;
};

export const CURRENCY = "DZD";

const cache = new Map<string, Formats>();

export function formatsFor(locale: Locale, timeZone: string): Formats {
  const cacheKey = `${locale}|${timeZone}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const tag = INTL_LOCALE[locale];
  // 24-hour times in every locale: fr-DZ's and ar-DZ's CLDR data print 12-hour ones (ص/م in Arabic), and the
  // merchants write 16:30.
  const hourCycle = "h23";
  // One date format per locale on every page: day, short month name and year spelled out (dateStyle "medium" is
  // all digits in ar-DZ, "04/03/2026", where the other pages write "4 مارس 2026").
  const dateTime = new Intl.DateTimeFormat(tag, { timeZone, year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle });
  const withZone = new Intl.DateTimeFormat(tag, {
    timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hourCycle,
    timeZoneName: "short",
  });
  const zonePart = new Intl.DateTimeFormat(tag, { timeZone, timeZoneName: "short" })
    .formatToParts(new Date())
    .find((part) => part.type === "timeZoneName");
  const money = new Intl.NumberFormat(tag, { style: "currency", currency: CURRENCY, minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const number = new Intl.NumberFormat(tag);
  const list = new Intl.ListFormat(tag, { type: "conjunction" });
  const formats: Formats = {
    dateTime: (value) => dateTime.format(value),
    dateTimeWithZone: (value) => withZone.format(value),
    zoneName: zonePart?.value ?? timeZone,
    /**
     * Money arrives as the database's decimal strings ("1234.50"). Formatting goes through Number only for
     * display: amounts of a shop order are far below the 2^53 limit where doubles lose cents.
     */
    money: (value) => {
      if (value === null || value === undefined || value.trim() === "") return "—";
      const parsed = Number(value);
      return Number.isFinite(parsed) ? money.format(parsed) : "—";
    },
    number: (value) => number.format(value),
    list: (values) => list.format(values),
  };
  cache.set(cacheKey, formats);
  return formats;
}

/** A dash for missing text, so empty cells read as empty rather than broken. */
export function orDash(value: string | null | undefined): string {
  return value === null || value === undefined || value.trim() === "" ? "—" : value;
}
