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
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useLayoutEffect } from "react";
import { useT } from "@/components/i18n/client-messages";
import type { DragBindings } from "./drag-bindings";

type Item = { id: number; name: string };

/**
 * Drag and drop for one list, loaded after the page is interactive (it is most of the page's JavaScript). It renders
 * no items of its own: it binds the ones the list already shows, through `bindings`.
 */
export function DragLayer({
  items,
  disabled,
  bindings,
  onDrop,
}: {
  items: Item[];
  disabled: boolean;
  bindings: DragBindings;
  onDrop: (activeId: number, overId: number) => void;
}) {
  const t = useT();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    onDrop(Number(active.id), Number(over.id));
  }

  const nameOf = (id: string | number) => items.find((item) => item.id === id)?.name ?? String(id);
  const positionOf = (id: string | number) => items.findIndex((item) => item.id === id) + 1;
  // Screen readers hear names and positions, not the internal ids dnd-kit would announce.
  const count = items.length;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t("Drag.pickedUp", { name: nameOf(active.id), position: positionOf(active.id), count }),
    onDragOver: ({ active, over }) =>
      over
        ? t("Drag.over", { name: nameOf(active.id), position: positionOf(over.id), count })
        : t("Drag.notOver", { name: nameOf(active.id) }),
    onDragEnd: ({ active, over }) =>
      over
        ? t("Drag.dropped", { name: nameOf(active.id), position: positionOf(over.id), count })
        : t("Drag.droppedNowhere", { name: nameOf(active.id) }),
    onDragCancel: ({ active }) => t("Drag.cancelled", { name: nameOf(active.id) }),
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: t("Drag.instructions"),
        },
      }}
    >
      <SortableContext items={items.map((item) => item.id)} strategy={verticalListSortingStrategy} disabled={disabled}>
        {items.map((item) => (
          <Binding key={item.id} id={item.id} bindings={bindings} />
        ))}
      </SortableContext>
    </DndContext>
  );
}

function Binding({ id, bindings }: { id: number; bindings: DragBindings }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  // The layer renders after the list, so the list's elements are registered by the time these effects run.
  useLayoutEffect(() => {
    setNodeRef(bindings.element(id, "item"));
    setActivatorNodeRef(bindings.element(id, "handle"));
  });
  const translate = CSS.Translate.toString(transform);
  useLayoutEffect(() => {
    bindings.set(id, { attributes, listeners, transform: translate, transition, dragging: isDragging });
  }, [bindings, id, attributes, listeners, translate, transition, isDragging]);
  useLayoutEffect(() => () => bindings.set(id, undefined), [bindings, id]);
  return null;
}
