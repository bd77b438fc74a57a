"use client";

import { lazy, Suspense, useCallback, useLayoutEffect, useRef, useState, useSyncExternalStore, useTransition } from "react";
import { useT } from "@/components/i18n/client-messages";
import { reorderCategories } from "../actions";
import { initialActionState, type ActionState } from "@/lib/actions/validated-action";
import { useHydrated } from "@/components/use-hydrated";
import { DragBindings, type DragBinding } from "./drag-bindings";

// dnd-kit is most of the editor's JavaScript: it loads in a chunk of its own once this list runs in the browser, which
// is after the page's load event (the editor itself hydrates then: categories-island.tsx). Until it has, the tree's
// move buttons and every form already work. If it never arrives (a failed or blocked download) that stays so: left
// uncaught, the failed import would reach the error boundary and take the working page down with it. React's lazy
// rather than next/dynamic, whose loader would cost more than 1.5 kB.
type DragLayerComponent = (props: Parameters<typeof import("./drag-layer").DragLayer>[0]) => React.ReactNode;
const nothing: DragLayerComponent = () => null;
const DragLayer = lazy<DragLayerComponent>(() =>
  import("./drag-layer")
    .then(
      (module) => ({ default: module.DragLayer }),
      () => ({ default: nothing }),
    ),
);

type Item = { id: number; name: string };

export type ReorderControls = {
  /** Drag handle: pointer drag, or keyboard (Space to lift, arrows to move, Space to drop, Escape to cancel). */
  handle: React.ReactNode;
  /** Plain buttons that move the item one place: the simplest keyboard and screen-reader alternative. */
  moveButtons: React.ReactNode;
};

/**
 * The server's new list, with the rows of `previous` it no longer has but `keep` holds (a row whose form is open)
 * left where they were, so a refresh never takes a form from under the merchant.
 */
function withKept<T extends Item>(items: T[], previous: T[], keep: ((id: number) => boolean) | undefined): T[] {
  if (!keep) return items;
  const present = new Set(items.map((item) => item.id));
  const next = [...items];
  previous.forEach((item, index) => {
    if (!present.has(item.id) && keep(item.id)) next.splice(Math.min(index, next.length), 0, item);
  });
  return next;
}

function moved<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  next.splice(to, 0, ...next.splice(from, 1));
  return next;
}

/**
 * One level of the tree (the top-level categories, or one category's subcategories), reorderable by drag and
 * drop or by its move buttons. The new order is shown at once and saved with the platform's reorder operation;
 * if the platform refuses, the previous order comes back with the reason.
 */
export function SortableList<T extends Item>({
  storeId,
  items,
  reorderKey,
  label,
  renderItem,
  keep,
}: {
  storeId: number;
  items: T[];
  reorderKey: string;
  label: string;
  renderItem: (item: T, controls: ReorderControls) => React.ReactNode;
  /** Rows to keep showing after the server's list has dropped them (deleted elsewhere while their form is open). */
  keep?: (id: number) => boolean;
}) {
  const [kept, setKept] = useState(items);
  const [source, setSource] = useState(items);
  /** Where the focus was when the server's list last changed: given back if reordering the rows dropped it. */
  const [focusAtRefresh, setFocusAtRefresh] = useState<{ element: Element | null } | null>(null);
  // The server's list wins whenever it changes (after any save or refresh), but a row with an open form stays.
  if (source !== items) {
    setSource(items);
    setKept(withKept(items, kept, keep));
    setFocusAtRefresh({ element: typeof document === "undefined" ? null : document.activeElement });
  }
  const present = new Set(items.map((item) => item.id));
  const order = kept.filter((item) => present.has(item.id) || keep?.(item.id));
  const setOrder = setKept;
  const [outcome, setOutcome] = useState<ActionState>(initialActionState);
  const [key, setKey] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const [bindings] = useState(() => new DragBindings());
  const t = useT();
  // The drag layer exists only in the browser, and the move buttons work once this list has hydrated.
  const inBrowser = useHydrated();
  const list = useRef<HTMLUListElement>(null);
  /** The move button that was pressed: it keeps the focus after its row has moved (React moves the row's DOM node, which drops focus). */
  const [refocus, setRefocus] = useState<{ id: number; direction: "up" | "down" } | null>(null);
  useLayoutEffect(() => {
    if (!refocus) return;
    // Only while the focus is lost or still in this list: a merchant who has moved on keeps their focus.
    const active = document.activeElement;
    if (active && active !== document.body && !list.current?.contains(active)) return;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>(`[data-move-item="${refocus.id}"]`);
    const wanted = [...(buttons ?? [])].find((button) => button.dataset.move === refocus.direction);
    // At the top or bottom the pressed button no longer applies: the other one keeps the focus on this row.
    const target = wanted?.getAttribute("aria-disabled") === "true" ? [...(buttons ?? [])].find((button) => button !== wanted) : wanted;
    if (target && document.activeElement !== target) target.focus();
  }, [refocus, kept]);
  useLayoutEffect(() => {
    const element = focusAtRefresh?.element;
    // React moves a row's element to reorder the list, which drops the focus inside it (an open form's field).
    if (!(element instanceof HTMLElement) || !element.isConnected || !list.current?.contains(element)) return;
    if (document.activeElement === element || (document.activeElement && document.activeElement !== document.body)) return;
    element.focus({ preventScroll: true });
  }, [focusAtRefresh]);

  function commit(next: T[], movedId: number) {
    const previous = order;
    const item = next.find((entry) => entry.id === movedId);
    const position = next.findIndex((entry) => entry.id === movedId) + 1;
    setOrder(next);
    startTransition(async () => {
      const form = new FormData();
      form.set("storeId", String(storeId));
      form.set("idempotencyKey", key ?? reorderKey);
      // A row kept after it was deleted elsewhere is not the platform's any more: the order sent leaves it out.
      form.set("ids", next.flatMap((item) => (present.has(item.id) ? [item.id] : [])).join(","));
      const result = await reorderCategories(initialActionState, form);
      startTransition(() => {
        const name = item?.name ?? "";
        // The result names the category and where it went (or why it did not move), for every reader.
        setOutcome({
          ...result,
          message: result.ok
            ? t("Categories.moved", { name, position, count: next.length })
            : t("Categories.moveRefused", { name, reason: result.message ?? "" }),
        });
        if (result.idempotencyKey) setKey(result.idempotencyKey);
        if (!result.ok) setOrder(previous);
      });
    });
  }

  function move(from: number, to: number) {
    const item = order[from];
    if (pending || !item || to < 0 || to >= order.length || from === to) return;
    commit(moved(order, from, to), item.id);
  }

  function moveByButton(from: number, direction: "up" | "down") {
    const item = order[from];
    if (item) setRefocus({ id: item.id, direction });
    move(from, direction === "up" ? from - 1 : from + 1);
  }

  function drop(activeId: number, overId: number) {
    move(
      order.findIndex((item) => item.id === activeId),
      order.findIndex((item) => item.id === overId),
    );
  }

  // Always rendered, so screen readers already watch it when the first result arrives.
  const message = (
    <p
      role={outcome.ok || !outcome.message ? "status" : "alert"}
      data-outcome={outcome.message ? (outcome.ok ? "ok" : "refused") : undefined}
      className={
        outcome.message ? `rounded-md px-3 py-1.5 text-sm ${outcome.ok ? "bg-emerald-50 text-emerald-900" : "bg-rose-50 text-rose-900"}` : "sr-only"
      }
    >
      {outcome.message}
    </p>
  );

  return (
    <div className="space-y-2" aria-busy={pending || undefined}>
      {message}
      <ul ref={list} aria-label={label} className="space-y-2">
        {order.map((item, index) => (
          <SortableItem key={item.id} id={item.id} bindings={bindings}>
            {(binding) =>
              renderItem(item, {
                handle: (
                  <button
                    type="button"
                    ref={bindings.ref(item.id, "handle")}
                    // Until drag and drop has loaded the handle does nothing, and says so.
                    aria-disabled={binding ? undefined : true}
                    {...binding?.attributes}
                    {...binding?.listeners}
                    aria-label={t("Categories.dragHandle", { name: item.name })}
                    className="inline-flex cursor-grab touch-none items-center justify-center rounded px-1.5 py-1 text-slate-500 max-sm:min-h-11 max-sm:min-w-11 hover:bg-slate-100 aria-disabled:cursor-default focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
                  >
                    <span aria-hidden="true">⠿</span>
                  </button>
                ),
                moveButtons: (
                  <span className="inline-flex gap-1">
                    {(["up", "down"] as const).map((direction) => {
                      const blocked = direction === "up" ? index === 0 : index === order.length - 1;
                      return (
                        <button
                          key={direction}
                          type="button"
                          data-move={direction}
                          data-move-item={item.id}
                          // aria-disabled, not disabled: a disabled button cannot hold the focus the move keeps on it.
                          aria-disabled={!inBrowser || pending || blocked || undefined}
                          onClick={() => {
                            if (inBrowser && !blocked) moveByButton(index, direction);
                          }}
                          aria-label={t(direction === "up" ? "Categories.moveUp" : "Categories.moveDown", { name: item.name })}
                          className="inline-flex items-center justify-center rounded px-1.5 py-1 text-slate-600 max-sm:min-h-11 max-sm:min-w-11 hover:bg-slate-100 aria-disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
                        >
                          <span aria-hidden="true">{direction === "up" ? "↑" : "↓"}</span>
                        </button>
                      );
                    })}
                  </span>
                ),
              })
            }
          </SortableItem>
        ))}
      </ul>
      {/* After the list, not around it: see DragBindings. */}
      {inBrowser ? (
        <Suspense fallback={null}>
          <DragLayer items={order} disabled={pending} bindings={bindings} onDrop={drop} />
        </Suspense>
      ) : null}
    </div>
  );
}

/** One item: its place in the list, moved and styled by the drag layer once that has loaded. */
function SortableItem({
  id,
  bindings,
  children,
}: {
  id: number;
  bindings: DragBindings;
  children: (binding: DragBinding | undefined) => React.ReactNode;
}) {
  const subscribe = useCallback((notify: () => void) => bindings.subscribe(id, notify), [bindings, id]);
  const binding = useSyncExternalStore(
    subscribe,
    () => bindings.get(id),
    () => undefined,
  );
  return (
    <li
      ref={bindings.ref(id, "item")}
      data-category-item={id}
      style={{ transform: binding?.transform, transition: binding?.transition }}
      className={binding?.dragging ? "relative z-10 opacity-80 shadow-lg" : undefined}
    >
      {children(binding)}
    </li>
  );
}
