"use client";

import { useRef, useState } from "react";
import { useT } from "@/components/i18n/client-messages";
import type { CategoryWithChildren } from "@/lib/platform";
import { CategoryRow } from "./category-row";
import { SortableList } from "./sortable-list";

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
  const [deleted, setDeleted] = useState("");
  const status = useRef<HTMLParagraphElement>(null);

  // The deleted row took the focused button with it: focus goes to the confirmation, which is read out.
  function onDeleted(message: string) {
    setDeleted(message);
    requestAnimationFrame(() => status.current?.focus());
  }

  return (
    <div className="space-y-2">
      <p
        ref={status}
        role="status"
        tabIndex={-1}
        data-outcome={deleted ? "ok" : undefined}
        className={deleted ? "rounded-md bg-emerald-50 px-3 py-1.5 text-sm text-emerald-900 focus-visible:outline-2 focus-visible:outline-slate-900" : "sr-only"}
      >
        {deleted}
      </p>
      <SortableList
        storeId={storeId}
        items={tree}
        reorderKey={keys.reorder[0] ?? ""}
        label={t("Categories.topLevelList")}
        renderItem={(category, controls) => (
          <CategoryRow
            storeId={storeId}
            category={category}
            parents={parents}
            hasChildren={category.children.length > 0}
            products={products[category.id] ?? ""}
            onDeleted={onDeleted}
            editKey={keys.edit[category.id] ?? ""}
            deleteKey={keys.remove[category.id] ?? ""}
            controls={
              <>
                {controls.handle}
                {controls.moveButtons}
              </>
            }
          >
            {category.children.length > 0 ? (
              <div className="border-t border-slate-100 py-2 ps-4 pe-3 sm:ps-10">
                <SortableList
                  storeId={storeId}
                  items={category.children}
                  reorderKey={keys.reorder[category.id] ?? ""}
                  label={t("Categories.subcategoriesOf", { name: category.name })}
                  renderItem={(child, childControls) => (
                    <CategoryRow
                      storeId={storeId}
                      category={child}
                      parents={parents}
                      hasChildren={false}
                      products={products[child.id] ?? ""}
                      onDeleted={onDeleted}
                      editKey={keys.edit[child.id] ?? ""}
                      deleteKey={keys.remove[child.id] ?? ""}
                      controls={
                        <>
                          {childControls.handle}
                          {childControls.moveButtons}
                        </>
                      }
                    />
                  )}
                />
              </div>
            ) : null}
          </CategoryRow>
        )}
      />
    </div>
  );
}
