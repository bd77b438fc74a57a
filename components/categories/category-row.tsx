"use client";

import { useRouter } from "next/navigation";
import { useActionState, useId, useRef, useState } from "react";
import { deleteCategory, updateCategory } from "@/app/stores/[storeId]/categories/actions";
import { FieldError } from "@/components/forms/field-error";
import { FormMessage } from "@/components/forms/form-message";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusFirstInvalid } from "@/components/forms/use-focus-invalid";
import { useT } from "@/components/i18n/client-messages";
import { initialActionState, type ActionState } from "@/lib/actions/validated-action";
import type { Category } from "@/lib/platform";
import { NameField, ParentField, StatusField, type ParentOption } from "./category-fields";

const BUTTON =
  "rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900";

function Outcome({ state }: { state: ActionState }) {
  const router = useRouter();
  const t = useT();
  return (
    <FormMessage state={state} reinstallLabel={t("Errors.reinstall")}>
      {state.reload ? (
        <button type="button" onClick={() => router.refresh()} className="ms-2 font-medium underline underline-offset-2">
          {t("Categories.reload")}
        </button>
      ) : null}
    </FormMessage>
  );
}

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
  editKey: string;
  deleteKey: string;
  controls: React.ReactNode;
  children?: React.ReactNode;
}) {
  const t = useT();
  const [editState, editAction] = useActionState(updateCategory, initialActionState);
  const [deleteState, deleteAction] = useActionState(async (previous: ActionState, form: FormData) => {
    const result = await deleteCategory(previous, form);
    if (result.ok && result.message) onDeleted(result.message);
    return result;
  }, initialActionState);
  const [panel, setPanel] = useState<"none" | "edit" | "delete">("none");
  const id = useId();
  const editForm = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(editForm, editState);
  // A "Saved" belongs to that save: closing and opening the form again starts clean, without the old message.
  const [dismissed, setDismissed] = useState<string | undefined>(undefined);
  const shownEdit = editState.resultId !== undefined && editState.resultId === dismissed ? initialActionState : editState;
  const [questionBefore = "", questionAfter = ""] = t("Categories.deleteQuestion").split("{name}");
  const parentChoices = parents.filter((parent) => parent.id !== category.id);
  const originalParent = String(category.parentId ?? 0);

  function toggle(next: "edit" | "delete") {
    setPanel(panel === next ? "none" : next);
    setDismissed(editState.resultId);
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
            aria-controls={`${id}-edit`}
            aria-label={t("Categories.editOf", { name: category.name })}
            onClick={() => toggle("edit")}
            className={`${BUTTON} text-slate-700`}
          >
            {t("Categories.edit")}
          </button>
          <button
            type="button"
            aria-expanded={panel === "delete"}
            aria-controls={`${id}-delete`}
            aria-label={t("Categories.deleteOf", { name: category.name })}
            onClick={() => toggle("delete")}
            className={`${BUTTON} text-rose-700 hover:bg-rose-50`}
          >
            {t("Categories.delete")}
          </button>
        </div>
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
            <ParentField id={`${id}-parent`} state={editState} defaultValue={originalParent} parents={parentChoices} locked={hasChildren} />
          </div>
          <FieldError id={`${id}-edit-form-error`} messages={editState.fieldErrors?.form} />
          <Outcome state={shownEdit} />
          <div className="flex flex-wrap gap-2">
            <SubmitButton pendingLabel={t("Categories.saving")}>{t("Categories.save")}</SubmitButton>
            <button type="button" onClick={() => setPanel("none")} className={`${BUTTON} px-3 py-1.5 text-slate-700`}>
              {t("Categories.close")}
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
            {questionBefore}
            <strong dir="auto">{category.name}</strong>
            {questionAfter}
          </p>
          <Outcome state={deleteState} />
          <div className="flex flex-wrap gap-2">
            <SubmitButton tone="danger" pendingLabel={t("Categories.deleting")}>
              {t("Categories.deleteConfirm")}
            </SubmitButton>
            <button type="button" onClick={() => setPanel("none")} className={`${BUTTON} px-3 py-1.5 text-slate-700`}>
              {t("Categories.cancel")}
            </button>
          </div>
        </form>
      ) : null}

      {children}
    </article>
  );
}
