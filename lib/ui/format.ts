/**
 * Display formatting shared by server and client components. Stores on the platform are Algerian (wilayas), so
 * times are shown in Africa/Algiers and amounts in dinars; both are fixed here rather than taken from the server's
 * locale, so a page renders the same wherever it is hosted.
 */

export const STORE_TIME_ZONE = "Africa/Algiers";
export const CURRENCY_LABEL = "DZD";

const dateTime = new Intl.DateTimeFormat("en-GB", { timeZone: STORE_TIME_ZONE, dateStyle: "medium", timeStyle: "short" });
const amount = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatDateTime(value: Date): string {
  return dateTime.format(value);
}

/**
 * Money arrives as the database's decimal strings ("1234.50"). Formatting goes through Number only for display:
 * amounts of a shop order are far below the 2^53 limit where doubles lose cents.
 */
export function formatMoney(value: string | null | undefined): string {
  if (value === null || value === undefined || value.trim() === "") return "—";
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) return "—";
  return `${amount.format(parsed)} ${CURRENCY_LABEL}`;
}

/** A dash for missing text, so empty cells read as empty rather than broken. */
export function orDash(value: string | null | undefined): string {
  return value === null || value === undefined || value.trim() === "" ? "—" : value;
}

export function humanize(value: string | null | undefined): string {
  if (!value) return "—";
  const spaced = value.replace(/[_-]+/g, " ").trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
