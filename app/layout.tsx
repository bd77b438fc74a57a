import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { getUi } from "@/i18n/server";
import { NONCE_HEADER } from "@/lib/http/nonce";
import { InlineStylesheetWriter } from "./inline-stylesheet-writer";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  const appName = t("Meta.appName");
  return { title: { default: appName, template: `%s · ${appName}` }, description: t("Meta.description") };
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: the content security policy's nonce (proxy.ts) exists only per request, and a
  // prerendered page (the 404 included) would ship scripts the policy blocks. The locale is per request too.
  await connection();
  const [{ locale, dir }, requestHeaders] = await Promise.all([getUi(), headers()]);
  return (
    <html lang={locale} dir={dir}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {/* The stylesheet, written into the head of a document answer (no request before the first paint). */}
        <InlineStylesheetWriter nonce={requestHeaders.get(NONCE_HEADER) ?? undefined} />
        {children}
      </body>
    </html>
  );
}
