import { ClientMessages } from "@/components/i18n/client-messages";
import { clientMessages } from "@/i18n/server";
import { type CategoryWithChildren, interactivePlatform, newIdempotencyKey } from "@/lib/platform";
import { sectionMetadata, storePage } from "../_components/store-page";
import { CategoriesIsland } from "./_components/categories-island";
import type { CategoryFormKeys } from "./_components/category-tree";
import { CATEGORY_CLIENT_KEYS } from "./_components/client-keys";
import { CATEGORIES_SPACE } from "./space";

export const generateMetadata = sectionMetadata("categories");

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

/**
 * The store's category tree, edited in place. It has no loading.tsx: the page arrives whole, in one answer, with the
 * tree. A skeleton streamed ahead of it put the page's real first paint (the heading and the tree) after its
 * scripts had arrived, which on a phone delays the largest paint behind them all. A client navigation shows the navigation bar (components/link-with-status.tsx) while it waits instead.
 * Categories live on the platform: a store the app no longer reaches has none to show and nothing to try again
 * (readOnly), and a refusal is explained in the frame's panel.
 */
export default storePage(
  "categories",
  async ({ storeId, ui: { t }, heading }) => {
    const tree = await interactivePlatform(storeId).categories.tree();
    const parents = tree.map((category) => ({ id: category.id, name: category.name }));
    const products: Record<number, string> = {};
    for (const category of tree) {
      for (const item of [category, ...category.children]) products[item.id] = t("Categories.products", { count: item.productCount });
    }
    return (
      <ClientMessages messages={await clientMessages(CATEGORY_CLIENT_KEYS)}>
        <div className="space-y-4">
          <div>
            {heading}
            <p className="mt-1 text-sm text-slate-600">{t("Categories.intro")}</p>
          </div>
          <CategoriesIsland
            storeId={storeId}
            createKey={newIdempotencyKey("ui")}
            parents={parents}
            tree={tree}
            keys={formKeys(tree)}
            products={products}
            empty={
              <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600">
                {t("Categories.empty")}
              </p>
            }
          />
        </div>
      </ClientMessages>
    );
  },
  // At least a screen high, whichever answer the page gives: see CATEGORIES_SPACE.
  { readOnly: "Categories.readOnly", loadFailed: "Categories.loadFailed", className: CATEGORIES_SPACE },
);
