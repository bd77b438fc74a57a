import { INTL_LOCALE, type Locale } from "./locales";

/**
 * Every number, amount, date and time a page shows, in the merchant's locale (Western digits, as `INTL_LOCALE`
 * says). Amounts are in dinars (the platform's stores are Algerian). Instants are shown in the stores' time zone
 * (STORE_TIME_ZONE, handed in by the caller), never the server's or the browser's, so a page reads the same
 * wherever it is hosted and opened; the zone is printed where a bare time could be misread. Calendar dates
 * (`YYYY-MM-DD`, a report's days) are formatted as such, in UTC, so no time zone can move them by a day.
 */
export type Formats = {
  /** An instant, day and minute: "5 mars 2026, 00:30". */
  dateTime(value: Date): string;
  /** The same with the zone's name ("UTC+1"): for a single time read on its own (an order's placement). */
  dateTimeWithZone(value: Date): string;
  /** An instant to the second, the zone in brackets: when the platform computed the figures on screen. */
  instant(value: Date): string;
  /** The zone's short name, e.g. "UTC+1", for a table header or caption. */
  zoneName: string;
  /** A calendar date `YYYY-MM-DD` with its year; anything else is shown as written. */
  date(value: string): string;
  /** A calendar date without its year, for a chart's axis. */
  shortDate(value: string): string;
  /** Dinars, from a number or the database's decimal string ("1234.50"); a dash for nothing or a non-amount. */
  money(value: number | string | null | undefined): string;
  /** A count or a measure: whole numbers as they are, others to two decimals. */
  count(value: number): string;
  /** A value already in percent: 12.5 -> "12.5%". */
  percent(value: number): string;
  /** "a, b and c" in the locale's words. */
  list(values: string[]): string;
};

export const CURRENCY = "DZD";

/**
 * 24-hour times in every locale: fr-DZ's and ar-DZ's CLDR data print 12-hour ones (ص/م in Arabic), and the
 * merchants write 16:30. Every time format below takes it from here.
 */
const HOUR_CYCLE = "h23";

const cache = new Map<string, Formats>();

/**
 * A formatter's answers kept for values met before. Intl's format costs microseconds a call, and the orders list
 * formats the same instants and amounts on every request (a reload, the live refresh every few seconds). Bounded:
 * past `max` values the memory starts over.
 */
function remembered<Value extends string | number>(format: (value: Value) => string, max = 4096): (value: Value) => string {
  let answers = new Map<Value, string>();
  return (value) => {
    // -0 and 0 are one key to a Map, but not one text to Intl ("-0,00").
    if (Object.is(value, -0)) return format(value);
    let text = answers.get(value);
    if (text === undefined) {
      text = format(value);
      if (answers.size >= max) answers = new Map();
      answers.set(value, text);
    }
    return text;
  };
}

function calendarDate(value: string): number | null {
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) ? null : ms;
}

export function formatsFor(locale: Locale, timeZone: string): Formats {
  const cacheKey = `${locale}|${timeZone}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const tag = INTL_LOCALE[locale];
  // One date format per locale on every page: day, short month name and year spelled out (dateStyle "medium" is
  // all digits in ar-DZ, "04/03/2026", where the other pages write "4 مارس 2026").
  const day = { year: "numeric", month: "short", day: "numeric" } as const;
  const dateTime = new Intl.DateTimeFormat(tag, { timeZone, ...day, hour: "2-digit", minute: "2-digit", hourCycle: HOUR_CYCLE });
  const withZone = new Intl.DateTimeFormat(tag, { timeZone, ...day, hour: "numeric", minute: "2-digit", hourCycle: HOUR_CYCLE, timeZoneName: "short" });
  const toSecond = new Intl.DateTimeFormat(tag, { timeZone, ...day, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: HOUR_CYCLE });
  const zone = new Intl.DateTimeFormat(tag, { timeZone, timeZoneName: "short" });
  const zoneOf = (value: Date) => zone.formatToParts(value).find((part) => part.type === "timeZoneName")?.value ?? timeZone;
  const calendarDay = new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...day });
  const calendarShortDay = new Intl.DateTimeFormat(tag, { timeZone: "UTC", day: "numeric", month: "short" });
  const money = new Intl.NumberFormat(tag, { style: "currency", currency: CURRENCY, minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const count = new Intl.NumberFormat(tag, { maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 1 });
  const list = new Intl.ListFormat(tag, { type: "conjunction" });
  const dateTimeAt = remembered((ms: number) => dateTime.format(ms));
  const moneyOf = remembered((amount: number) => money.format(amount));
  const formats: Formats = {
    dateTime: (value) => dateTimeAt(value.getTime()),
    dateTimeWithZone: (value) => withZone.format(value),
    instant: (value) => `${toSecond.format(value)} (${zoneOf(value)})`,
    zoneName: zoneOf(new Date()),
    date: (value) => {
      const ms = calendarDate(value);
      return ms === null ? value : calendarDay.format(ms);
    },
    shortDate: (value) => {
      const ms = calendarDate(value);
      return ms === null ? value : calendarShortDay.format(ms);
    },
    /**
     * Money arrives as a number from the platform's reports and as the database's decimal strings from orders.
     * Strings go through Number only for display: a shop order's amounts are far below the 2^53 limit where
     * doubles lose cents.
     */
    money: (value) => {
      if (value === null || value === undefined || (typeof value === "string" && value.trim() === "")) return "—";
      const parsed = Number(value);
      return Number.isFinite(parsed) ? moneyOf(parsed) : "—";
    },
    count: (value) => count.format(value),
    percent: (value) => percent.format(value / 100),
    list: (values) => list.format(values),
  };
  cache.set(cacheKey, formats);
  return formats;
}

/** A dash for missing text, so empty cells read as empty rather than broken. */
export function orDash(value: string | null | undefined): string {
  return value === null || value === undefined || value.trim() === "" ? "—" : value;
}
