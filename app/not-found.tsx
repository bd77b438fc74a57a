import Link from "next/link";

export const metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-4 px-6">
      <p className="text-sm font-semibold text-slate-500">404</p>
      <h1 className="text-2xl font-semibold">This page does not exist, or it is not yours to see</h1>
      <p className="text-slate-600">
        Stores appear here only in the browser that installed the app on them. If you installed it elsewhere, install it
        again from this browser: your data is kept.
      </p>
      <div className="flex gap-3">
        <Link href="/stores" className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700">
          Your stores
        </Link>
        <Link href="/install" prefetch={false} className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-white">
          Install on a store
        </Link>
      </div>
    </main>
  );
}
