"use client";

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
export function CategoryTree({ storeId, tree, keys }: { storeId: number; tree: CategoryWithChildren[]; keys: CategoryFormKeys }) {
  const parents = tree.map((category) => ({ id: category.id, name: category.name }));
  return (
    <SortableList
      storeId={storeId}
      items={tree}
      reorderKey={keys.reorder[0] ?? ""}
      label="Top-level categories"
      renderItem={(category, controls) => (
        <CategoryRow
          storeId={storeId}
          category={category}
          parents={parents}
          hasChildren={category.children.length > 0}
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
            <div className="border-t border-slate-100 py-2 pl-6 pr-3 sm:pl-10">
              <SortableList
                storeId={storeId}
                items={category.children}
                reorderKey={keys.reorder[category.id] ?? ""}
                label={`Subcategories of ${category.name}`}
                renderItem={(child, childControls) => (
                  <CategoryRow
                    storeId={storeId}
                    category={child}
                    parents={parents}
                    hasChildren={false}
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
  );
}
