import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { getInstallAttemptCookie, getSession } from "@/lib/session";

export const dynamic = "force-dynamic";

/** Forgets this browser's stores (the installs themselves stay: the merchant can open them again by installing). */
export async function POST() {
  (await getSession()).destroy();
  (await getInstallAttemptCookie()).destroy();
  const response = NextResponse.redirect(`${env.APP_URL}/`, 303);
  response.headers.set("Cache-Control", "no-store");
  return response;
}
