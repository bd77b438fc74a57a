import Link from "next/link";
import { currentSession } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const storeCount = (await currentSession())?.installs.length ?? 0;
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center gap-8 px-6 py-16">
      <div className="space-y-3">
        <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Store App Starter</p>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Orders and categories for all your stores</h1>
        <p className="text-lg text-slate-600">
          Install the app on one or more of your stores. You choose the stores on the platform&apos;s consent screen, and
          you can add more at any time.
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-4">
        {/* A plain link: /install is a route handler that starts a fresh attempt, never to be prefetched. */}
        <a
          href="/install"
          className="rounded-md bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Install on your stores
        </a>
        {storeCount > 0 && (
          <Link
            href="/stores"
            className="rounded-md px-5 py-3 font-semibold text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            Open your stores ({storeCount})
          </Link>
        )}
      </div>
    </main>
  );
}
