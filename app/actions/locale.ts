"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { initialActionState, validatedAction } from "@/lib/actions/validated-action";
import { LOCALE_COOKIE, LOCALES } from "@/i18n/locales";
import { env } from "@/lib/env";

/**
 * The language switcher's choice, remembered for a year in this browser. Setting a cookie in an action makes Next
 * render the current page again, so the answer is the same page in the new language, at the same address.
 */
export const chooseLocale = validatedAction(z.object({ locale: z.enum(LOCALES) }), async ({ locale }) => {
  (await cookies()).set(LOCALE_COOKIE, locale, {
    path: "/",
    maxAge: 60 * 60 * 24 * 365,
    sameSite: "lax",
    httpOnly: true,
    secure: env.APP_URL.startsWith("https://"),
  });
  return { ok: true };
});

/** The switcher's form action: a plain form posts it, so it works before and without JavaScript. */
export async function switchLocale(formData: FormData): Promise<void> {
  await chooseLocale(initialActionState, formData);
}
