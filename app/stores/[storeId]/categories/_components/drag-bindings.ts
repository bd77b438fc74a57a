import type { DraggableAttributes, DraggableSyntheticListeners } from "@dnd-kit/core";

/** What the drag layer lends one item of a list once dnd-kit has loaded. */
export type DragBinding = {
  attributes: DraggableAttributes;
  listeners: DraggableSyntheticListeners;
  transform: string | undefined;
  transition: string | undefined;
  dragging: boolean;
};

type Part = "item" | "handle";

/**
 * Where a list and its drag layer meet. The list renders its items and handles from the start; the layer arrives
 * later as their sibling, not their parent, so its arrival re-renders the items it binds but never remounts them
 * (an open form keeps what was typed in it). The list registers its elements here, the layer hands them to dnd-kit
 * and posts back each item's drag state, which each item reads on its own.
 */
export class DragBindings {
  private readonly elements = new Map<string, HTMLElement>();
  private readonly refs = new Map<string, (element: HTMLElement | null) => void>();
  private readonly bindings = new Map<number, DragBinding>();
  private readonly subscribers = new Map<number, Set<() => void>>();

  /** A ref callback that stays the same across renders, so React does not detach and attach it every time. */
  ref(id: number, part: Part): (element: HTMLElement | null) => void {
    const key = `${part}:${id}`;
    let ref = this.refs.get(key);
    if (!ref) {
      ref = (element) => {
        if (element) this.elements.set(key, element);
        else this.elements.delete(key);
      };
      this.refs.set(key, ref);
    }
    return ref;
  }

  element(id: number, part: Part): HTMLElement | null {
    return this.elements.get(`${part}:${id}`) ?? null;
  }

  get(id: number): DragBinding | undefined {
    return this.bindings.get(id);
  }

  set(id: number, binding: DragBinding | undefined): void {
    const current = this.bindings.get(id);
    if (current === binding || (current && binding && sameBinding(current, binding))) return;
    if (binding) this.bindings.set(id, binding);
    else this.bindings.delete(id);
    for (const notify of this.subscribers.get(id) ?? []) notify();
  }

  subscribe(id: number, notify: () => void): () => void {
    let set = this.subscribers.get(id);
    if (!set) this.subscribers.set(id, (set = new Set()));
    set.add(notify);
    return () => {
      set.delete(notify);
      if (set.size === 0) this.subscribers.delete(id);
    };
  }
}

function sameBinding(a: DragBinding, b: DragBinding): boolean {
  return (
    a.attributes === b.attributes &&
    a.listeners === b.listeners &&
    a.transform === b.transform &&
    a.transition === b.transition &&
    a.dragging === b.dragging
  );
}
