"use client";

import { useRouter } from "next/navigation";
import { useActionState, useId, useRef, useState } from "react";
import { deleteCategory, updateCategory } from "@/app/stores/[storeId]/categories/actions";
import { FieldError } from "@/components/forms/field-error";
import { FormMessage } from "@/components/forms/form-message";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusFirstInvalid } from "@/components/forms/use-focus-invalid";
import { initialActionState, type ActionState } from "@/lib/actions/validated-action";
import type { Category } from "@/lib/platform";
import { NameField, ParentField, StatusField, type ParentOption } from "./category-fields";

function Outcome({ state }: { state: ActionState }) {
  const router = useRouter();
  return (
    <FormMessage state={state}>
      {state.reload ? (
        <button type="button" onClick={() => router.refresh()} className="ml-2 font-medium underline underline-offset-2">
          Reload the list
        </button>
      ) : null}
    </FormMessage>
  );
}

/** One category: what it is at a glance, and its edit (rename, status, parent) and delete forms on demand. */
export function CategoryRow({
  storeId,
  category,
  parents,
  hasChildren,
  editKey,
  deleteKey,
  controls,
  children,
}: {
  storeId: number;
  category: Category;
  parents: ParentOption[];
  hasChildren: boolean;
  editKey: string;
  deleteKey: string;
  controls: React.ReactNode;
  children?: React.ReactNode;
}) {
  const [editState, editAction] = useActionState(updateCategory, initialActionState);
  const [deleteState, deleteAction] = useActionState(deleteCategory, initialActionState);
  const [panel, setPanel] = useState<"none" | "edit" | "delete">("none");
  const id = useId();
  const editForm = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(editForm, editState);
  const parentChoices = parents.filter((parent) => parent.id !== category.id);
  const originalParent = String(category.parentId ?? 0);

  return (
    <article
      aria-labelledby={`${id}-name`}
      data-category-id={category.id}
      className="rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex flex-wrap items-center gap-2 px-3 py-2">
        {controls}
        <h3 id={`${id}-name`} dir="auto" className="min-w-0 flex-1 truncate font-medium">
          {category.name}
        </h3>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
            category.status === "active" ? "bg-emerald-50 text-emerald-800 ring-emerald-300" : "bg-slate-100 text-slate-700 ring-slate-300"
          }`}
        >
          {category.status === "active" ? "Active" : "Inactive"}
        </span>
        <span className="text-xs text-slate-600">
          {category.productCount} product{category.productCount === 1 ? "" : "s"}
        </span>
        <button
          type="button"
          aria-expanded={panel === "edit"}
          aria-controls={`${id}-edit`}
          onClick={() => setPanel(panel === "edit" ? "none" : "edit")}
          className="rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
        >
          Edit<span className="sr-only"> “{category.name}”</span>
        </button>
        <button
          type="button"
          aria-expanded={panel === "delete"}
          aria-controls={`${id}-delete`}
          onClick={() => setPanel(panel === "delete" ? "none" : "delete")}
          className="rounded-md px-2 py-1 text-sm font-medium text-rose-700 hover:bg-rose-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
        >
          Delete<span className="sr-only"> “{category.name}”</span>
        </button>
      </div>

      {panel === "edit" ? (
        <form ref={editForm} id={`${id}-edit`} action={editAction} className="space-y-3 border-t border-slate-100 px-3 py-3">
          <input type="hidden" name="storeId" value={storeId} />
          <input type="hidden" name="categoryId" value={category.id} />
          <input type="hidden" name="idempotencyKey" value={editState.idempotencyKey ?? editKey} />
          <input type="hidden" name="originalName" value={category.name} />
          <input type="hidden" name="originalStatus" value={category.status} />
          <input type="hidden" name="originalParentId" value={originalParent} />
          <div className="grid gap-3 sm:grid-cols-3">
            <NameField id={`${id}-name-input`} state={editState} defaultValue={category.name} />
            <StatusField id={`${id}-status`} state={editState} defaultValue={category.status} />
            <ParentField
              id={`${id}-parent`}
              state={editState}
              defaultValue={originalParent}
              parents={parentChoices}
              hint={
                hasChildren ? (
                  <p className="mt-1 text-xs text-slate-500">It has subcategories, so the platform keeps it at the top level.</p>
                ) : null
              }
            />
          </div>
          <FieldError id={`${id}-edit-form-error`} messages={editState.fieldErrors?.form} />
          <Outcome state={editState} />
          <div className="flex gap-2">
            <SubmitButton pendingLabel="Saving…">Save changes</SubmitButton>
            <button
              type="button"
              onClick={() => setPanel("none")}
              className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
            >
              Close
            </button>
          </div>
        </form>
      ) : null}

      {panel === "delete" ? (
        <form id={`${id}-delete`} action={deleteAction} className="space-y-2 border-t border-slate-100 px-3 py-3">
          <input type="hidden" name="storeId" value={storeId} />
          <input type="hidden" name="categoryId" value={category.id} />
          <input type="hidden" name="name" value={category.name} />
          <input type="hidden" name="idempotencyKey" value={deleteState.idempotencyKey ?? deleteKey} />
          <p className="text-sm">
            Delete <strong dir="auto">{category.name}</strong>? Only an empty category (no products, no subcategories) can be
            deleted.
          </p>
          <Outcome state={deleteState} />
          <div className="flex gap-2">
            <SubmitButton tone="danger" pendingLabel="Deleting…">
              Delete category
            </SubmitButton>
            <button
              type="button"
              onClick={() => setPanel("none")}
              className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
            >
              Cancel
            </button>
          </div>
        </form>
      ) : null}

      {children}
    </article>
  );
}
