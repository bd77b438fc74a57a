import type { Metadata } from "next";
import { connection } from "next/server";
import { getUi } from "@/i18n/server";
// The app's one stylesheet, through Next's CSS pipeline (postcss.config.mjs: Tailwind): both bundlers link it from
// every page, under the policy's style-src 'self' (proxy.ts).
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  const appName = t("Meta.appName");
  return { title: { default: appName, template: `%s · ${appName}` }, description: t("Meta.description") };
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: the content security policy's nonce (proxy.ts) exists only per request, and a
  // prerendered page (the 404 included) would ship scripts the policy blocks. The locale is per request too.
  await connection();
  const { locale, dir } = await getUi();
  return (
    <html lang={locale} dir={dir}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {children}
      </body>
    </html>
  );
}
