"use client";

import { lazy, Suspense, useEffect, useId, useState } from "react";
import { useT } from "@/components/i18n/client-messages";
import { useHydrated } from "@/components/use-hydrated";
import type { Category } from "@/lib/platform";
import type { ParentOption } from "./category-fields";
import { ROW_BUTTON as BUTTON } from "./row-button";

// The edit and delete forms are code the merchant needs only once they press Edit or Delete: it loads then, on
// first use, and stays out of the page's first load. A failed download leaves the row as it was (the press does
// nothing) rather than reaching the error boundary, which would take the working page down.
type CategoryPanelsComponent = (props: import("./category-panels").CategoryPanelsProps) => React.ReactNode;
const nothing: CategoryPanelsComponent = () => null;
const CategoryPanels = lazy<CategoryPanelsComponent>(() =>
  import("./category-panels").then(
    (module) => ({ default: module.CategoryPanels }),
    () => ({ default: nothing }),
  ),
);

/**
 * One category: its name on a line of its own (with the move controls), its status, product count and actions
 * next to it where there is room and on a second line on a phone; edit (rename, status, parent) and delete on
 * demand.
 */
export function CategoryRow({
  storeId,
  category,
  parents,
  hasChildren,
  products,
  onDeleted,
  onSaved,
  onHold,
  editKey,
  deleteKey,
  controls,
  children,
}: {
  storeId: number;
  category: Category;
  parents: ParentOption[];
  hasChildren: boolean;
  /** "3 products", plural-formatted on the server. */
  products: string;
  /** A deleted row disappears with its form: the tree says what happened, outside the row. */
  onDeleted: (message: string) => void;
  /** A save went through: the tree says what changed and brings the focus back to this row (wherever it went). */
  onSaved: (message: string, categoryId: number, parentId: string) => void;
  /** Whether this row has a form open: while it has, the tree keeps the row through refreshes (see CategoryTree). */
  onHold: (categoryId: number, held: boolean) => void;
  editKey: string;
  deleteKey: string;
  controls: React.ReactNode;
  children?: React.ReactNode;
}) {
  const t = useT();
  const [panel, setPanel] = useState<"none" | "edit" | "delete">("none");
  const [toggles, setToggles] = useState(0);
  const [explained, setExplained] = useState(false);
  const id = useId();
  const hydrated = useHydrated();

  useEffect(() => {
    if (panel === "none") return;
    onHold(category.id, true);
    return () => onHold(category.id, false);
  }, [panel, category.id, onHold]);

  // The platform refuses to delete a category that is not empty: Delete says so up front instead of failing later.
  const deletable = !hasChildren && category.productCount === 0;

  function toggle(next: "edit" | "delete") {
    if (!hydrated) return;
    if (next === "delete" && !deletable) {
      // A tap on the unavailable Delete shows why (a phone has no hover to show its title).
      setExplained(true);
      return;
    }
    setPanel(panel === next ? "none" : next);
    setToggles(toggles + 1);
  }

  return (
    <article aria-labelledby={`${id}-name`} data-category-id={category.id} className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2">
        <div className="flex min-w-0 flex-[1_1_12rem] items-center gap-2">
          {controls}
          <h3 id={`${id}-name`} dir="auto" className="min-w-0 flex-1 break-words font-medium">
            {category.name}
          </h3>
        </div>
        <div className="ms-auto flex flex-wrap items-center gap-2">
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
              category.status === "active" ? "bg-emerald-50 text-emerald-800 ring-emerald-300" : "bg-slate-100 text-slate-700 ring-slate-300"
            }`}
          >
            {category.status === "active" ? t("Categories.active") : t("Categories.inactive")}
          </span>
          <span className="text-xs text-slate-600">{products}</span>
          <button
            type="button"
            aria-expanded={panel === "edit"}
            aria-disabled={!hydrated || undefined}
            aria-controls={`${id}-edit`}
            data-row-edit
            aria-label={t("Categories.editOf", { name: category.name })}
            onClick={() => toggle("edit")}
            className={`${BUTTON} text-slate-700`}
          >
            {t("Categories.edit")}
          </button>
          <button
            type="button"
            aria-expanded={deletable ? panel === "delete" : undefined}
            aria-disabled={!hydrated || !deletable || undefined}
            aria-controls={deletable ? `${id}-delete` : undefined}
            aria-describedby={deletable ? undefined : `${id}-undeletable`}
            aria-label={t("Categories.deleteOf", { name: category.name })}
            title={deletable ? undefined : t("Categories.deleteUnavailable")}
            onClick={() => toggle("delete")}
            className={`${BUTTON} ${deletable ? "text-rose-700 hover:bg-rose-50" : "cursor-not-allowed text-slate-500"}`}
          >
            {t("Categories.delete")}
          </button>
          {deletable ? null : (
            <span id={`${id}-undeletable`} hidden={!explained} className="basis-full text-xs text-slate-600">
              {t("Categories.deleteUnavailable")}
            </span>
          )}
        </div>
      </div>

      {toggles > 0 ? (
        <Suspense fallback={null}>
          <CategoryPanels
            id={id}
            storeId={storeId}
            category={category}
            parentChoices={parents.filter((parent) => parent.id !== category.id)}
            hasChildren={hasChildren}
            panel={panel}
            toggles={toggles}
            onClose={() => setPanel("none")}
            onDeleted={(message) => {
              // Deleted here: the row lets go, and goes with the refresh the delete brings.
              setPanel("none");
              onDeleted(message);
            }}
            onSaved={(message, parentId) => {
              // One message for the save, the tree's: the form closes with it.
              setPanel("none");
              onSaved(message, category.id, parentId);
            }}
            editKey={editKey}
            deleteKey={deleteKey}
          />
        </Suspense>
      ) : null}

      {children}
    </article>
  );
}
