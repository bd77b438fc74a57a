import { notFound } from "next/navigation";

/**
 * Any path under a store that no page serves (/stores/101/no-such-page, /stores/101/orders/1/x): without this, Next
 * answered it with app/not-found.tsx, which writes nothing on a store the session holds (it is rendered with every
 * page, and there it would only be read after a navigation the guard refused), so the browser loaded the page
 * afresh for an answer, and again, in a loop. Here the store's layout runs its guard first (a store not held is the
 * root's 404 as ever) and a held store answers with its own not-found page, status 404, at once.
 */
export default function UnknownStorePage(): never {
  notFound();
}
