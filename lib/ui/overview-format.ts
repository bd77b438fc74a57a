import { INTL_LOCALE, type Locale } from "@/i18n/locales";
import { env } from "@/lib/env";

/**
 * Number, money and date formatting for the overview, in the request's locale (Western digits, as `INTL_LOCALE`
 * says). The store's money is Algerian dinars and its days are Algerian days; the report's dates are calendar dates (`YYYY-MM-DD`), formatted as such (in UTC) so no
 * time zone can move them by a day. The env is read when called, not on import, so `next build` needs no env.
 */
export type OverviewFormat = ReturnType<typeof overviewFormat>;

export function overviewFormat(locale: Locale) {
  const tag = INTL_LOCALE[locale];
  const STORE_TIME_ZONE = env.STORE_TIME_ZONE;
  // 24-hour times in every locale, as lib/ui/format.ts prints them.
  const hourCycle = "h23";
  const integer = new Intl.NumberFormat(tag, { maximumFractionDigits: 0 });
  const decimal = new Intl.NumberFormat(tag, { maximumFractionDigits: 2 });
  const money = new Intl.NumberFormat(tag, { style: "currency", currency: "DZD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 1 });
  const day = new Intl.DateTimeFormat(tag, { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" });
  const shortDay = new Intl.DateTimeFormat(tag, { timeZone: "UTC", day: "numeric", month: "short" });
  const time = new Intl.DateTimeFormat(tag, { timeZone: STORE_TIME_ZONE, year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle });
  const zone = new Intl.DateTimeFormat(tag, { timeZone: STORE_TIME_ZONE, timeZoneName: "short" });
  const calendar = (value: string) => {
    const ms = Date.parse(`${value}T00:00:00Z`);
    return Number.isNaN(ms) ? null : ms;
  };
  return {
    count: (value: number) => (Number.isInteger(value) ? integer.format(value) : decimal.format(value)),
    money: (value: number) => money.format(value),
    /** A value already in percent (12.5 -> "12.5%"). */
    percent: (value: number) => percent.format(value / 100),
    /** A calendar date `YYYY-MM-DD`; anything else is shown as the platform wrote it. */
    date: (value: string) => {
      const ms = calendar(value);
      return ms === null ? value : day.format(ms);
    },
    shortDate: (value: string) => {
      const ms = calendar(value);
      return ms === null ? value : shortDay.format(ms);
    },
    /** An instant in the store's time zone, with the zone named so it cannot be misread. */
    instant: (value: Date) => {
      const zoneName = zone.formatToParts(value).find((part) => part.type === "timeZoneName")?.value ?? STORE_TIME_ZONE;
      return `${time.format(value)} (${zoneName})`;
    },
  };
}
