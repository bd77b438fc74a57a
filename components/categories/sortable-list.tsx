"use client";

import {
  closestCenter,
  DndContext,
  type Announcements,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DraggableAttributes,
  type DraggableSyntheticListeners,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useState, useTransition } from "react";
import { reorderCategories } from "@/app/stores/[storeId]/categories/actions";
import { initialActionState, type ActionState } from "@/lib/actions/validated-action";

type Item = { id: number; name: string };

export type ReorderControls = {
  /** Drag handle: pointer drag, or keyboard (Space to lift, arrows to move, Space to drop, Escape to cancel). */
  handle: React.ReactNode;
  /** Plain buttons that move the item one place: the simplest keyboard and screen-reader alternative. */
  moveButtons: React.ReactNode;
};

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
}: {
  storeId: number;
  items: T[];
  reorderKey: string;
  label: string;
  renderItem: (item: T, controls: ReorderControls) => React.ReactNode;
}) {
  const [order, setOrder] = useState(items);
  const [source, setSource] = useState(items);
  // The server's list wins whenever it changes (after any save or refresh).
  if (source !== items) {
    setSource(items);
    setOrder(items);
  }
  const [outcome, setOutcome] = useState<ActionState>(initialActionState);
  const [key, setKey] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  function commit(next: T[]) {
    const previous = order;
    setOrder(next);
    startTransition(async () => {
      const form = new FormData();
      form.set("storeId", String(storeId));
      form.set("idempotencyKey", key ?? reorderKey);
      form.set("ids", next.map((item) => item.id).join(","));
      const result = await reorderCategories(initialActionState, form);
      startTransition(() => {
        setOutcome(result);
        if (result.idempotencyKey) setKey(result.idempotencyKey);
        if (!result.ok) setOrder(previous);
      });
    });
  }

  function move(from: number, to: number) {
    if (pending || to < 0 || to >= order.length || from === to) return;
    commit(arrayMove(order, from, to));
  }

  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    move(
      order.findIndex((item) => item.id === active.id),
      order.findIndex((item) => item.id === over.id),
    );
  }

  const nameOf = (id: string | number) => order.find((item) => item.id === id)?.name ?? String(id);
  const positionOf = (id: string | number) => order.findIndex((item) => item.id === id) + 1;
  // Screen readers hear names and positions, not the internal ids dnd-kit would announce.
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up “${nameOf(active.id)}”, position ${positionOf(active.id)} of ${order.length}.`,
    onDragOver: ({ active, over }) =>
      over ? `“${nameOf(active.id)}” is over position ${positionOf(over.id)} of ${order.length}.` : `“${nameOf(active.id)}” is not over a place.`,
    onDragEnd: ({ active, over }) =>
      over ? `“${nameOf(active.id)}” was dropped at position ${positionOf(over.id)} of ${order.length}.` : `“${nameOf(active.id)}” was dropped.`,
    onDragCancel: ({ active }) => `Moving “${nameOf(active.id)}” was cancelled.`,
  };

  const message = outcome.message ? (
    <p
      role={outcome.ok ? "status" : "alert"}
      data-outcome={outcome.ok ? "ok" : "refused"}
      className={`rounded-md px-3 py-1.5 text-sm ${outcome.ok ? "bg-emerald-50 text-emerald-900" : "bg-rose-50 text-rose-900"}`}
    >
      {outcome.message}
    </p>
  ) : null;

  return (
    <div className="space-y-2" aria-busy={pending || undefined}>
      {message}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable: "To reorder, press Space, move with the arrow keys, and press Space again to drop. Escape cancels.",
          },
        }}
      >
        <SortableContext items={order.map((item) => item.id)} strategy={verticalListSortingStrategy} disabled={pending}>
          <ul aria-label={label} className="space-y-2">
            {order.map((item, index) => (
              <SortableItem key={item.id} id={item.id}>
                {(attributes, listeners, setActivator) =>
                  renderItem(item, {
                    handle: (
                      <button
                        type="button"
                        ref={setActivator}
                        {...attributes}
                        {...listeners}
                        aria-label={`Drag to reorder “${item.name}”`}
                        className="cursor-grab touch-none rounded px-1.5 py-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
                      >
                        <span aria-hidden="true">⠿</span>
                      </button>
                    ),
                    moveButtons: (
                      <span className="inline-flex">
                        <button
                          type="button"
                          onClick={() => move(index, index - 1)}
                          disabled={pending || index === 0}
                          aria-label={`Move “${item.name}” up`}
                          className="rounded px-1.5 py-1 text-slate-600 hover:bg-slate-100 disabled:opacity-30 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
                        >
                          <span aria-hidden="true">↑</span>
                        </button>
                        <button
                          type="button"
                          onClick={() => move(index, index + 1)}
                          disabled={pending || index === order.length - 1}
                          aria-label={`Move “${item.name}” down`}
                          className="rounded px-1.5 py-1 text-slate-600 hover:bg-slate-100 disabled:opacity-30 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
                        >
                          <span aria-hidden="true">↓</span>
                        </button>
                      </span>
                    ),
                  })
                }
              </SortableItem>
            ))}
          </ul>
        </SortableContext>
      </DndContext>
    </div>
  );
}

function SortableItem({
  id,
  children,
}: {
  id: number;
  children: (
    attributes: DraggableAttributes,
    listeners: DraggableSyntheticListeners,
    setActivator: (element: HTMLElement | null) => void,
  ) => React.ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <li
      ref={setNodeRef}
      data-category-item={id}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={isDragging ? "relative z-10 opacity-80 shadow-lg" : undefined}
    >
      {children(attributes, listeners, setActivatorNodeRef)}
    </li>
  );
}
