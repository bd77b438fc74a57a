import type { ReactNode } from "react";

/** The body of a 404 inside a store's shell: what is missing, why it may be, and the one way back. */
export function NotFoundPanel({ kind, title, body, back }: { kind: string; title: string; body: string; back: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm" data-not-found={kind}>
      <h1 className="text-lg font-semibold">{title}</h1>
      <p className="mt-2 text-slate-600">{body}</p>
      <div className="mt-4 text-sm font-medium [&_a]:underline [&_a]:underline-offset-2">{back}</div>
    </section>
  );
}
