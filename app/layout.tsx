import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Store App Starter", template: "%s · Store App Starter" },
  description: "Orders and categories of the stores this app is installed on.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: the content security policy's nonce (proxy.ts) exists only per request, and a
  // prerendered page (the 404 included) would ship scripts the policy blocks.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
