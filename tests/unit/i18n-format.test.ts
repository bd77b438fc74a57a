import { describe, expect, it } from "vitest";
import { negotiateLocale, resolveLocale } from "@/i18n/negotiate";
import { algerianNational, phoneKey, telHref } from "@/lib/phone";
import { formatsFor } from "@/i18n/format";

// U+200E/U+200F (direction marks) that Intl puts around Arabic currency; they are invisible, so tests ignore them.
const visible = (text: string) => text.replace(/[\u200e\u200f\u061c]/g, "");

describe("money", () => {
  it("is in dinars with each locale's grouping, decimal mark and sign", () => {
    expect(formatsFor("en", "Africa/Algiers").money("1234.5")).toBe("DZD\u00a01,234.50");
    expect(formatsFor("fr", "Africa/Algiers").money("-1234567.5")).toBe("-1\u202f234\u202f567,50\u00a0DA");
    expect(visible(formatsFor("ar", "Africa/Algiers").money("1234567.5"))).toBe("1.234.567,50\u00a0د.ج.");
  });

  it("shows a dash for nothing or for something that is not an amount", () => {
    const { money } = formatsFor("en", "Africa/Algiers");
    expect(money(null)).toBe("—");
    expect(money(" ")).toBe("—");
    expect(money("abc")).toBe("—");
    expect(money(Number.NaN)).toBe("—");
  });

  it("reads the same from the platform's numbers and the database's decimal strings", () => {
    for (const locale of ["ar", "fr", "en"] as const) {
      const { money } = formatsFor(locale, "Africa/Algiers");
      expect(money(84500.5)).toBe(money("84500.50"));
      expect(money(0)).toBe(money("0"));
    }
    expect(formatsFor("en", "UTC").money(0)).toBe("DZD\u00a00.00");
  });

  it("answers a value met before as it did the first time, and keeps -0 apart from 0", () => {
    const { money, dateTime } = formatsFor("fr", "Africa/Algiers");
    const fresh = new Intl.NumberFormat("fr-DZ", { style: "currency", currency: "DZD", minimumFractionDigits: 2 });
    expect(money(-0)).toBe(fresh.format(-0));
    expect(money(0)).toBe(fresh.format(0));
    expect(money(0)).not.toBe(money(-0));
    const instant = new Date("2026-03-04T21:05:00Z");
    expect(dateTime(new Date(instant))).toBe(dateTime(instant));
    expect(dateTime(new Date("2026-03-04T21:06:00Z"))).not.toBe(dateTime(instant));
  });

  it("writes Arabic with the Western digits Algerian merchants read, never Arabic-Indic ones", () => {
    const ar = formatsFor("ar", "Africa/Algiers");
    const text = ar.money("9876543.21") + ar.dateTimeWithZone(new Date("2026-03-04T21:05:00Z")) + ar.count(1234.5) + ar.percent(12.5) + ar.instant(new Date("2026-03-04T21:05:09Z")) + ar.date("2026-03-04");
    expect(text).toMatch(/9.876.543,21/);
    expect(text).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/);
  });
});

describe("dates", () => {
  it("are in the stores' time zone, whatever the server's, with the zone named where asked", () => {
    const lateEvening = new Date("2026-03-04T23:30:00Z"); // 00:30 on 5 March in Algiers (UTC+1)
    expect(formatsFor("fr", "Africa/Algiers").dateTime(lateEvening)).toBe("5 mars 2026, 00:30");
    expect(formatsFor("en", "Africa/Algiers").dateTimeWithZone(lateEvening)).toBe("Mar 5, 2026, 00:30 GMT+1");
    expect(formatsFor("en", "UTC").dateTime(lateEvening)).toBe("Mar 4, 2026, 23:30");
  });

  it("are 24-hour and in one format per locale, the same with or without the zone", () => {
    const evening = new Date("2026-03-04T20:05:00Z");
    for (const locale of ["ar", "fr", "en"] as const) {
      const formats = formatsFor(locale, "UTC");
      expect(formats.dateTime(evening)).toMatch(/20:05/);
      expect(formats.dateTime(evening)).not.toMatch(/AM|PM|ص|م$/);
      expect(formats.dateTimeWithZone(evening).startsWith(formats.dateTime(evening))).toBe(true);
    }
    expect(formatsFor("ar", "UTC").dateTime(evening)).toBe("4 مارس 2026، 20:05");
    expect(formatsFor("fr", "Africa/Algiers").zoneName).toBe("UTC+1");
  });
});

describe("numbers and percentages", () => {
  it("count whole numbers as they are and others to two decimals, in each locale's digits and marks", () => {
    expect(formatsFor("en", "UTC").count(1234)).toBe("1,234");
    expect(formatsFor("en", "UTC").count(3.14159)).toBe("3.14");
    expect(formatsFor("fr", "UTC").count(1234.5)).toBe("1\u202f234,5");
    expect(formatsFor("ar", "UTC").count(1234)).toBe("1.234");
  });

  it("take percentages already in percent, to one decimal", () => {
    expect(formatsFor("en", "UTC").percent(12.5)).toBe("12.5%");
    expect(formatsFor("en", "UTC").percent(-25)).toBe("-25%");
    expect(formatsFor("fr", "UTC").percent(3.33)).toBe("3,3\u00a0%");
    expect(visible(formatsFor("ar", "UTC").percent(12.5))).toMatch(/^12[.,]5\s?[%٪]$/);
  });
});

describe("calendar dates and computed-at instants", () => {
  it("print a report's calendar dates as written, whatever the stores' zone", () => {
    // Midnight UTC is 01:00 in Algiers and the previous evening in Los Angeles: neither moves the day.
    for (const zone of ["Africa/Algiers", "America/Los_Angeles", "Pacific/Kiritimati"]) {
      expect(formatsFor("en", zone).date("2026-03-01")).toBe("Mar 1, 2026");
      expect(formatsFor("en", zone).shortDate("2026-03-01")).toBe("Mar 1");
    }
    expect(formatsFor("fr", "UTC").date("2026-03-01")).toBe("1 mars 2026");
    expect(formatsFor("ar", "UTC").date("2026-03-01")).toBe("1 مارس 2026");
    expect(formatsFor("en", "UTC").date("soon")).toBe("soon");
    expect(formatsFor("en", "UTC").shortDate("2026-02-30x")).toBe("2026-02-30x");
  });

  it("give an instant to the second, 24-hour, in the stores' zone with the zone named", () => {
    const lateEvening = new Date("2026-03-01T23:30:05Z");
    expect(formatsFor("en", "Africa/Algiers").instant(lateEvening)).toBe("Mar 2, 2026, 00:30:05 (GMT+1)");
    expect(formatsFor("fr", "Africa/Algiers").instant(lateEvening)).toBe("2 mars 2026, 00:30:05 (UTC+1)");
    const evening = new Date("2026-03-04T20:05:09Z");
    for (const locale of ["ar", "fr", "en"] as const) expect(formatsFor(locale, "UTC").instant(evening)).toMatch(/20:05:09/);
  });
});

describe("locale negotiation", () => {
  it("takes the merchant's cookie first, then the browser's best language we have, then the default", () => {
    expect(resolveLocale({ cookie: "ar", acceptLanguage: "fr-FR,fr;q=0.9", fallback: "en" })).toBe("ar");
    expect(resolveLocale({ cookie: "de", acceptLanguage: "fr-DZ,ar;q=0.8", fallback: "en" })).toBe("fr");
    expect(resolveLocale({ cookie: undefined, acceptLanguage: "de-DE,de;q=0.9", fallback: "fr" })).toBe("fr");
    expect(resolveLocale({ cookie: undefined, acceptLanguage: null, fallback: "ar" })).toBe("ar");
  });

  it("honours weights and refusals", () => {
    expect(negotiateLocale("en;q=0.5, ar-DZ;q=0.9")).toBe("ar");
    expect(negotiateLocale("fr;q=0, en")).toBe("en");
    expect(negotiateLocale("de, *;q=0.1")).toBeNull();
  });
});

describe("phone search", () => {
  it("finds one Algerian line however it was typed, in its national form", () => {
    for (const typed of ["0510203040", "+213 510 20 30 40", "00213-510-20-30-40", "213510203040", "+213 (0) 510 20 30 40", "٠٥١٠٢٠٣٠٤٠"]) {
      expect(algerianNational(typed), typed).toBe("0510203040");
    }
    expect(algerianNational("021 23 45 67")).toBe("021234567");
  });

  it("leaves anything else to its digits: no national form, the key its digits", () => {
    for (const typed of ["+33 6 12 34 56 78", "213-555-1234", "21305512345", "0551", ""]) expect(algerianNational(typed), typed).toBeNull();
    expect(phoneKey("+33 6 12 34 56 78")).toBe("33612345678");
    expect(phoneKey("—")).toBeNull();
  });

  it("dials an Algerian line in its international form, anything else as written, nothing without digits", () => {
    expect(telHref("0550 12 34 56")).toBe("tel:+213550123456");
    expect(telHref("00213-550-12-34-56")).toBe("tel:+213550123456");
    expect(telHref("+213 (0) 550 12 34 56")).toBe("tel:+213550123456");
    expect(telHref("+33 6 12 34 56 78")).toBe("tel:+33612345678");
    expect(telHref("—")).toBeNull();
    expect(telHref("")).toBeNull();
    expect(telHref(null)).toBeNull();
  });
});
