import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { getUi } from "@/i18n/server";
import { NONCE_HEADER } from "@/lib/http/nonce";
// The compiled stylesheet as text (empty under next dev, which links it): written into the head, it costs no request
// before the first paint. Client navigations keep the root layout, so only a document load carries it.
import stylesheet from "./inline-stylesheet";

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
      {stylesheet ? (
        <head>
          <style nonce={requestHeaders.get(NONCE_HEADER) ?? undefined} dangerouslySetInnerHTML={{ __html: stylesheet }} />
        </head>
      ) : null}
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
