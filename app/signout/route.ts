import { NextResponse } from "next/server";
import { getDb } from "@/lib/database/app-database";
import { env } from "@/lib/env";
import { endSession, getInstallAttemptCookie } from "@/lib/session";

export const dynamic = "force-dynamic";

/** Ends this browser's session on the server (a copy of the cookie stops working too) and forgets its cookies. */
export async function POST() {
  await endSession(await getDb());
  (await getInstallAttemptCookie()).destroy();
  const response = NextResponse.redirect(`${env.APP_URL}/`, 303);
  response.headers.set("Cache-Control", "no-store");
  return response;
}
