import type { Metadata } from "next";
import { requireStoreOf } from "@/lib/ui/store-page";
import { orDatabaseUnavailable } from "@/components/database-unavailable";
import { CategoriesIsland } from "@/components/categories/categories-island";
import type { CategoryFormKeys } from "@/components/categories/category-tree";
import { CATEGORY_CLIENT_KEYS } from "@/components/categories/client-keys";
import { ErrorPanel } from "@/components/error-panel";
import { ClientMessages } from "@/components/i18n/client-messages";
import { clientMessages, getUi } from "@/i18n/server";
import { log } from "@/lib/log";
import { type CategoryWithChildren, interactivePlatform, isPlatformError, newIdempotencyKey } from "@/lib/platform";
import { mayCallPlatform } from "@/lib/installs/state";
import { describePlatformError } from "@/lib/ui/platform-messages";
import { CATEGORIES_SPACE } from "./space";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getUi();
  return { title: t("Meta.categories") };
}

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

export default async function CategoriesPage(props: Parameters<typeof Categories>[0]) {
  const { storeId } = await props.params;
  // The same space as loading.tsx's skeleton, whichever answer the page gives: see CATEGORIES_SPACE.
  return (
    <div className={CATEGORIES_SPACE}>
      {await orDatabaseUnavailable(() => Categories(props), { retry: `/stores/${encodeURIComponent(storeId)}/categories` })}
    </div>
  );
}

async function Categories({ params }: { params: Promise<{ storeId: string }> }) {
  const { storeId, install } = await requireStoreOf(params);
  const { t } = await getUi();
  const path = `/stores/${storeId}/categories`;
  const heading = (
    <h1 className="min-w-0 break-words text-2xl font-semibold tracking-tight">
      {t("Categories.title")} <span className="sr-only">{t("Shell.of")}</span>{" "}
      <span dir="auto" className="text-base font-normal text-slate-600">
        {install.storeName}
      </span>
    </h1>
  );

  // Categories live on the platform: a store the app no longer reaches has none to show, and nothing to try again.
  // The layout's banner carries the one Reinstall.
  if (!mayCallPlatform(install.state)) {
    return (
      <div className="space-y-4">
        {heading}
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700" data-read-only>
          {t("Categories.readOnly")}
        </p>
      </div>
    );
  }

  let tree: CategoryWithChildren[];
  try {
    tree = await interactivePlatform(storeId).categories.tree();
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    log.warn("categories page could not load the tree", { storeId, status: error.status, code: error.code, requestId: error.requestId });
    const described = describePlatformError(error, t);
    return (
      <div className="space-y-4">
        {heading}
        <ErrorPanel
          title={t("Categories.loadFailed")}
          message={described.message}
          // Trying again helps only when the platform said so (a limit, an outage); a refusal stays a refusal.
          retryHref={described.retryable ? path : undefined}
          reinstall={described.reinstall}
          labels={{
            tryAgain: t("Errors.tryAgain"),
            reinstall: t("Errors.reinstall"),
            requestId: error.requestId ? t("Errors.requestId", { id: error.requestId }) : undefined,
          }}
        />
      </div>
    );
  }

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
}
