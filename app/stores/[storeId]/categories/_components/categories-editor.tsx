"use client";

import type { CategoryWithChildren } from "@/lib/platform";
import type { ParentOption } from "./category-fields";
import { CategoryTree, type CategoryFormKeys } from "./category-tree";
import { CreateCategoryForm } from "./create-category-form";

export type CategoriesEditorProps = {
  storeId: number;
  /** The create form's idempotency key. */
  createKey: string;
  parents: ParentOption[];
  tree: CategoryWithChildren[];
  keys: CategoryFormKeys;
  products: Record<number, string>;
  /** What an empty store shows instead of the tree, rendered on the server. */
  empty: React.ReactNode;
};

/** The categories page's interactive part: the create form, then the reorderable tree (or the empty state). */
// The default export: categories-island.tsx loads it with React's lazy, which takes a module's default.
export default function CategoriesEditor({ storeId, createKey, parents, tree, keys, products, empty }: CategoriesEditorProps) {
  return (
    <>
      <CreateCategoryForm
        storeId={storeId}
        idempotencyKey={createKey}
        parents={parents}
        names={tree.flatMap((category) => [category.name, ...category.children.map((child) => child.name)])}
      />
      {tree.length === 0 ? empty : <CategoryTree storeId={storeId} tree={tree} keys={keys} products={products} />}
    </>
  );
}
