import type { Metadata } from "next";
import Link from "next/link";
import { describeFailure } from "@/lib/oauth/failure-reasons";

export const metadata: Metadata = { title: "Install not completed" };

export default async function InstallFailedPage({ searchParams }: { searchParams: Promise<{ reason?: string | string[] }> }) {
  const { reason } = await searchParams;
  const failure = describeFailure(Array.isArray(reason) ? reason[0] : reason);
  const declined = failure.reason === "access_denied";
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col justify-center gap-6 px-6 py-16">
      <div
        className={`rounded-lg border p-6 ${declined ? "border-slate-200 bg-white" : "border-amber-300 bg-amber-50"}`}
        data-reason={failure.reason ?? "unknown"}
      >
        <h1 className="text-2xl font-bold text-slate-900">{failure.title}</h1>
        <p className="mt-3 text-slate-700">{failure.detail}</p>
      </div>
      <div className="flex flex-wrap gap-4">
        <a
          href="/install"
          className="rounded-md bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Start again
        </a>
        <Link
          href="/"
          className="rounded-md px-5 py-3 font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Back to the start page
        </Link>
      </div>
    </main>
  );
}
