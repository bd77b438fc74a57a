import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Locale } from "@/i18n/locales";
import { getUi } from "@/i18n/server";
import { translator } from "../helpers/i18n";

/**
 * i18n/server.ts keeps one translator per locale for the process and remembers its texts: every answer must still
 * be what next-intl's own translator gives for that locale, whatever was asked before, and a key the catalogue
 * lacks must be reported on each use, as next-intl does.
 */

const request = vi.hoisted(() => ({ locale: "en" as string }));
vi.mock("@/i18n/request-locale", () => ({ requestLocale: async () => request.locale as Locale }));

beforeEach(() => {
  request.locale = "en";
});

describe("getUi", () => {
  it("translates as next-intl does, in the request's locale, plain and with values, asked once or again", async () => {
    for (const locale of ["fr", "ar", "en", "fr"] as const) {
      request.locale = locale;
      const { t, locale: uiLocale, dir } = await getUi();
      const reference = translator(locale);
      expect(uiLocale).toBe(locale);
      expect(dir).toBe(locale === "ar" ? "rtl" : "ltr");
      for (let round = 0; round < 2; round++) {
        expect(t("Orders.title")).toBe(reference("Orders.title"));
        expect(t("Shell.signOutEverywhereHelp", { name: "Boutique" })).toBe(reference("Shell.signOutEverywhereHelp", { name: "Boutique" }));
        expect(t("Shell.signOutEverywhereHelp", { name: "Autre" })).toBe(reference("Shell.signOutEverywhereHelp", { name: "Autre" }));
        expect(t("OrderImport.running", { count: 1 })).toBe(reference("OrderImport.running", { count: 1 }));
        expect(t("OrderImport.running", { count: 1234 })).toBe(reference("OrderImport.running", { count: 1234 }));
        // The same digits as a string and as a number are different values to ICU (a number is formatted).
        expect(t("OrderImport.running", { count: "1234" as unknown as number })).toBe(reference("OrderImport.running", { count: "1234" as unknown as number }));
      }
    }
  });

  it("reports a key the catalogue lacks on every use, with or without values", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { t } = await getUi();
      t("Orders.noSuchKey");
      t("Orders.noSuchKey");
      t("Orders.noSuchKeyEither", { name: "x" });
      t("Orders.noSuchKeyEither", { name: "x" });
      expect(errors).toHaveBeenCalledTimes(4);
    } finally {
      errors.mockRestore();
    }
  });
});
