"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { useT } from "@/components/i18n/client-messages";
import type { Category, CategoryWithChildren } from "@/lib/platform";
import { CategoryRow } from "./category-row";
import { SortableList, type ReorderControls } from "./sortable-list";

/** How long the toast stays: long enough to read a sentence twice. */
const NOTICE_MS = 8_000;

/** Idempotency keys rendered by the server for every form and list of the page. */
export type CategoryFormKeys = {
  edit: Record<number, string>;
  remove: Record<number, string>;
  /** By parent id; 0 for the top level. */
  reorder: Record<number, string>;
};

/** The two-level tree: top-level categories in order, each with its subcategories as their own reorderable list. */
export function CategoryTree({
  storeId,
  tree,
  keys,
  products,
}: {
  storeId: number;
  tree: CategoryWithChildren[];
  keys: CategoryFormKeys;
  /** Product counts in words, by category id (plurals are formatted on the server). */
  products: Record<number, string>;
}) {
  const t = useT();
  const parents = tree.map((category) => ({ id: category.id, name: category.name }));
  // The page's one toast: each save or delete replaces the last message (they never pile up), and it goes after a
  // while, so it never outlives what it names.
  const [notice, setNotice] = useState<{ message: string; seq: number }>({ message: "", seq: 0 });
  const refocus = useRef<{ id: number; parentId: string } | null>(null);
  const status = useRef<HTMLParagraphElement>(null);
  const router = useRouter();

  // Rows with a form open. The list refreshes under them (a save elsewhere on the page, the order import's refresh,
  // a return to this tab), and a row the server no longer lists (deleted in another tab) stays until its form is
  // closed: the same elements, with what was typed and the focus, and a save then says the category is gone.
  const [held, setHeld] = useState<ReadonlySet<number>>(() => new Set());
  const onHold = useCallback((id: number, hold: boolean) => {
    setHeld((previous) => {
      if (previous.has(id) === hold) return previous;
      const next = new Set(previous);
      if (hold) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const listed = new Set(tree.flatMap((category) => [category.id, ...category.children.map((child) => child.id)]));
  // Only a row gone from the whole tree is kept: one moved under another parent shows there.
  const keep = (id: number) => held.has(id) && !listed.has(id);

  // Back on this tab, the list is read again: the categories may have changed in another one.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible") router.refresh();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [router]);

  function announce(message: string) {
    setNotice((previous) => ({ message, seq: previous.seq + 1 }));
  }

  useEffect(() => {
    if (!notice.message) return;
    const timer = window.setTimeout(() => setNotice((current) => (current.seq === notice.seq ? { ...current, message: "" } : current)), NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [notice]);

  // After a save the row may sit under another parent (a new element): once it is there, its Edit button takes the
  // focus back, scrolled into view, so the merchant sees where it went and carries on from it.
  useEffect(() => {
    const wanted = refocus.current;
    if (!wanted) return;
    const row = document.querySelector<HTMLElement>(`article[data-category-id="${wanted.id}"]`);
    const parentRow = row?.parentElement?.closest<HTMLElement>("article[data-category-id]");
    const at = parentRow ? parentRow.dataset.categoryId : "0";
    if (!row || (wanted.parentId !== "" && at !== wanted.parentId)) return;
    refocus.current = null;
    row.querySelector<HTMLElement>("[data-row-edit]")?.focus({ preventScroll: true });
    row.scrollIntoView({ block: "center" });
  }, [notice, tree]);

  // The deleted row took the focused button with it: focus goes to the confirmation, which is read out.
  function onDeleted(message: string) {
    announce(message);
    requestAnimationFrame(() => status.current?.focus());
  }

  function onSaved(message: string, id: number, parentId: string) {
    refocus.current = { id, parentId };
    announce(message);
  }

  // A top-level row and a subcategory's row differ only in what they hold below them (a subcategory holds none here).
  const row = (category: Category, controls: ReorderControls, below: React.ReactNode = null) => (
    <CategoryRow
      storeId={storeId}
      category={category}
      parents={parents}
      hasChildren={below !== null}
      products={products[category.id] ?? ""}
      onDeleted={onDeleted}
      onSaved={onSaved}
      onHold={onHold}
      editKey={keys.edit[category.id] ?? ""}
      deleteKey={keys.remove[category.id] ?? ""}
      controls={
        <>
          {controls.handle}
          {controls.moveButtons}
        </>
      }
    >
      {below}
    </CategoryRow>
  );

  return (
    <div className="space-y-2">
      <p
        ref={status}
        role="status"
        tabIndex={-1}
        data-toast
        data-outcome={notice.message ? "ok" : undefined}
        className={
          notice.message
            ? "fixed inset-x-4 bottom-4 z-30 rounded-md bg-slate-900 px-4 py-3 text-sm text-white shadow-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 sm:start-auto sm:end-4 sm:max-w-sm"
            : "sr-only"
        }
      >
        {notice.message}
      </p>
      <SortableList
        storeId={storeId}
        items={tree}
        reorderKey={keys.reorder[0] ?? ""}
        label={t("Categories.topLevelList")}
        keep={keep}
        renderItem={(category, controls) =>
          row(
            category,
            controls,
            category.children.length > 0 ? (
              <div className="border-t border-slate-100 py-2 ps-4 pe-3 sm:ps-10">
                <SortableList
                  storeId={storeId}
                  items={category.children}
                  reorderKey={keys.reorder[category.id] ?? ""}
                  label={t("Categories.subcategoriesOf", { name: category.name })}
                  keep={keep}
                  renderItem={(child, childControls) => row(child, childControls)}
                />
              </div>
            ) : null,
          )
        }
      />
    </div>
  );
}
