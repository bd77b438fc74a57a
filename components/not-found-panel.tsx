import type { ReactNode } from "react";

/** The body of a 404 inside a store's shell: what is missing, why it may be, and the one way back. */
export function NotFoundPanel({ kind, title, body, back }: { kind: string; title: string; body: string; back: ReactNode }) {
  return (
    // Its look is the `not-found-panel` rule of app/globals.css: every store page sends this panel in its RSC payload
    // (as its segments' not-found boundaries), where the utilities would cost some 200 bytes a panel.
    <section className="not-found-panel" data-not-found={kind}>
      <h1>{title}</h1>
      <p>{body}</p>
      <div>{back}</div>
    </section>
  );
}
