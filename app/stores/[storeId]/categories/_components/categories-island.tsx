"use client";

import { lazy, Suspense } from "react";
import type { CategoriesEditorProps } from "./categories-editor";

// The categories editor (create form, reorderable tree, their announcements: about 4.5 kB gzipped) is rendered on
// the server like the rest of the page, but its code loads after the page's load event, and the editor hydrates
// then; the store's other pages never load it at all. Until it has hydrated, its forms still submit as plain forms
// (server actions work without JavaScript) and its buttons that need JavaScript render disabled (useHydrated), so no
// press is lost. A failed download leaves the server's markup as it is rather than taking the page down.
// Written for size: this chunk is under the server's 1 kB compression threshold, so each byte of it is sent as is.
const afterLoad = () =>
  new Promise((resolve) => (typeof window === "undefined" || document.readyState === "complete" ? resolve(0) : addEventListener("load", resolve)));

type Editor = (props: CategoriesEditorProps) => React.ReactNode;
const CategoriesEditor = lazy<Editor>(() =>
  afterLoad()
    .then(() => import("./categories-editor"))
    // In the browser it never settles: React keeps the server's markup in place, where a fallback would empty the
    // page. On the server a missing module is a build fault, for the error boundary.
    .catch((error: unknown) => (typeof window === "undefined" ? Promise.reject(error) : new Promise<never>(() => {}))),
);

export function CategoriesIsland(props: CategoriesEditorProps) {
  return (
    // No fallback to name: until the code has arrived React leaves the boundary dehydrated, the server's markup.
    <Suspense>
      <CategoriesEditor {...props} />
    </Suspense>
  );
}
