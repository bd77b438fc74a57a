import type { Metadata } from "next";
import { CategoryTree, type CategoryFormKeys } from "@/components/categories/category-tree";
import { CreateCategoryForm } from "@/components/categories/create-category-form";
import { ErrorPanel } from "@/components/error-panel";
import { log } from "@/lib/log";
import { type CategoryWithChildren, interactivePlatform, isPlatformError, newIdempotencyKey } from "@/lib/platform";
import { requireStore } from "@/lib/tenancy";
import { describePlatformError } from "@/lib/ui/platform-messages";

export const metadata: Metadata = { title: "Categories" };

function formKeys(tree: CategoryWithChildren[]): CategoryFormKeys {
  const keys: CategoryFormKeys = { edit: {}, remove: {}, reorder: { 0: newIdempotencyKey("ui") } };
  for (const category of tree) {
    keys.reorder[category.id] = newIdempotencyKey("ui");
    for (const item of [category, ...category.children]) {
      keys.edit[item.id] = newIdempotencyKey("ui");
      keys.remove[item.id] = newIdempotencyKey("ui");
    }
  }
  return keys;
}

export default async function CategoriesPage({ params }: { params: Promise<{ storeId: string }> }) {
  const { storeId: storeIdParam } = await params;
  const { storeId, install } = await requireStore(storeIdParam);
  const path = `/stores/${storeId}/categories`;

  let tree: CategoryWithChildren[];
  try {
    tree = await interactivePlatform(storeId).categories.tree();
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    log.warn("categories page could not load the tree", { storeId, status: error.status, code: error.code, requestId: error.requestId });
    const described = describePlatformError(error, "category");
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold tracking-tight">Categories</h1>
        <ErrorPanel
          title="The categories could not be loaded"
          message={described.message}
          retryHref={path}
          reinstall={described.reinstall}
          requestId={error.requestId}
        />
      </div>
    );
  }

  const parents = tree.map((category) => ({ id: category.id, name: category.name }));
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">
          Categories <span className="sr-only">of</span>{" "}
          <span dir="auto" className="text-base font-normal text-slate-500">
            {install.storeName}
          </span>
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          Live from the platform. Drag a category by its handle, or use its arrows, to change the order; changes are saved at
          once.
        </p>
      </div>
      <CreateCategoryForm storeId={storeId} idempotencyKey={newIdempotencyKey("ui")} parents={parents} />
      {tree.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600">
          This store has no categories yet. Create the first one above.
        </p>
      ) : (
        <CategoryTree storeId={storeId} tree={tree} keys={formKeys(tree)} />
      )}
    </div>
  );
}
