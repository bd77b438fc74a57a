import Link from "next/link";

/** An order or category that is not in this store (or never existed): the same answer, so ids cannot be probed. */
export default function NotFound() {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-2 text-slate-600">There is nothing at this address in this store. It may have been deleted.</p>
      <Link href="/stores" className="mt-4 inline-block text-sm font-medium underline underline-offset-2">
        Back to your stores
      </Link>
    </section>
  );
}
