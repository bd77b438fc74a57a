"use client";

import { useRouter } from "next/navigation";
import { useActionState, useRef, useState } from "react";
import { deleteCategory, updateCategory } from "../actions";
import { FieldError } from "@/components/forms/field-error";
import { FormMessage } from "@/components/forms/form-message";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusFirstInvalid } from "@/components/forms/use-focus-invalid";
import { useT } from "@/components/i18n/client-messages";
import { initialActionState, type ActionState } from "@/lib/actions/validated-action";
import type { Category } from "@/lib/platform";
import { NameField, ParentField, StatusField, type ParentOption } from "./category-fields";
import { ROW_BUTTON } from "./row-button";

function Outcome({ state, onClose }: { state: ActionState; onClose: () => void }) {
  const router = useRouter();
  const t = useT();
  return (
    <FormMessage state={state} reinstallLabel={t("Errors.reinstall")}>
      {state.reload ? (
        <button
          type="button"
          // The open form keeps its row on the page (CategoryTree): closed first, the row goes with the refresh.
          onClick={() => {
            onClose();
            router.refresh();
          }}
          className="ms-2 inline-flex items-center font-medium underline underline-offset-2 max-sm:min-h-11"
        >
          {t("Categories.reload")}
        </button>
      ) : null}
    </FormMessage>
  );
}

export type CategoryPanelsProps = {
  /** The row's useId: the panels' ids are the ones its Edit and Delete buttons name in aria-controls. */
  id: string;
  storeId: number;
  category: Category;
  /** Parents this category may move under (itself excluded). */
  parentChoices: ParentOption[];
  hasChildren: boolean;
  panel: "none" | "edit" | "delete";
  /** Counts the presses of Edit and Delete: each one clears the last save's message. */
  toggles: number;
  onClose: () => void;
  onDeleted: (message: string) => void;
  /** A save went through: the row says what changed (parentId as sent: where the row now sits, "0" top level). */
  onSaved: (message: string, parentId: string) => void;
  editKey: string;
  deleteKey: string;
};

/**
 * A category's edit and delete forms. Loaded the first time the merchant opens either (CategoryRow), then kept
 * mounted while the row lives, so each form's last answer and its next idempotency key survive closing it.
 */
export function CategoryPanels({
  id,
  storeId,
  category,
  parentChoices,
  hasChildren,
  panel,
  toggles,
  onClose,
  onDeleted,
  onSaved,
  editKey,
  deleteKey,
}: CategoryPanelsProps) {
  const t = useT();
  const originalParent = String(category.parentId ?? 0);
  /** What the save changed, in words: where the category went, or its new name (else the server's sentence). */
  function describeEdit(form: FormData, fallback: string): string {
    const name = String(form.get("name") ?? "").trim() || category.name;
    const parentId = String(form.get("parentId") ?? "");
    if (parentId !== "" && parentId !== originalParent) {
      const parent = parentChoices.find((choice) => String(choice.id) === parentId);
      return parent ? t("Categories.movedUnder", { name, parent: `\u2068${parent.name}\u2069` }) : t("Categories.movedToTop", { name });
    }
    if (name !== category.name) return t("Categories.renamed", { from: category.name, name });
    return fallback;
  }
  const [editState, editAction] = useActionState(async (previous: ActionState, form: FormData) => {
    const result = await updateCategory(previous, form);
    if (result.ok && result.message) onSaved(describeEdit(form, result.message), String(form.get("parentId") ?? ""));
    return result;
  }, initialActionState);
  const [deleteState, deleteAction] = useActionState(async (previous: ActionState, form: FormData) => {
    const result = await deleteCategory(previous, form);
    if (result.ok && result.message) onDeleted(result.message);
    return result;
  }, initialActionState);
  // A row kept after its category was deleted elsewhere gets no keys from the server any more: the first ones stay.
  const [firstKeys] = useState({ edit: editKey, remove: deleteKey });
  const editForm = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(editForm, editState);
  // A "Saved" belongs to that save: closing and opening the form again starts clean, without the old message.
  const [dismissed, setDismissed] = useState<string | undefined>(undefined);
  const [seenToggles, setSeenToggles] = useState(toggles);
  if (seenToggles !== toggles) {
    setSeenToggles(toggles);
    setDismissed(editState.resultId);
  }
  const shownEdit = editState.resultId !== undefined && editState.resultId === dismissed ? initialActionState : editState;
  const [questionBefore = "", questionAfter = ""] = t("Categories.deleteQuestion").split("{name}");

  if (panel === "edit") {
    return (
      <form ref={editForm} id={`${id}-edit`} action={editAction} className="space-y-3 border-t border-slate-100 px-3 py-3">
        <input type="hidden" name="storeId" value={storeId} />
        <input type="hidden" name="categoryId" value={category.id} />
        <input type="hidden" name="idempotencyKey" value={editState.idempotencyKey ?? (editKey || firstKeys.edit)} />
        <input type="hidden" name="originalName" value={category.name} />
        <input type="hidden" name="originalStatus" value={category.status} />
        <input type="hidden" name="originalParentId" value={originalParent} />
        <div className="grid gap-3 sm:grid-cols-3">
          <NameField id={`${id}-name-input`} state={editState} defaultValue={category.name} />
          <StatusField id={`${id}-status`} state={editState} defaultValue={category.status} />
          <ParentField id={`${id}-parent`} state={editState} defaultValue={originalParent} parents={parentChoices} locked={hasChildren} />
        </div>
        <FieldError id={`${id}-edit-form-error`} messages={editState.fieldErrors?.form} />
        <Outcome state={shownEdit} onClose={onClose} />
        <div className="flex flex-wrap gap-2">
          <SubmitButton pendingLabel={t("Categories.saving")}>{t("Categories.save")}</SubmitButton>
          <button type="button" onClick={onClose} className={`${ROW_BUTTON} px-3 py-1.5 text-slate-700`}>
            {t("Categories.close")}
          </button>
        </div>
      </form>
    );
  }

  if (panel === "delete") {
    return (
      <form id={`${id}-delete`} action={deleteAction} className="space-y-2 border-t border-slate-100 px-3 py-3">
        <input type="hidden" name="storeId" value={storeId} />
        <input type="hidden" name="categoryId" value={category.id} />
        <input type="hidden" name="name" value={category.name} />
        <input type="hidden" name="idempotencyKey" value={deleteState.idempotencyKey ?? (deleteKey || firstKeys.remove)} />
        <p className="text-sm">
          {questionBefore}
          <strong dir="auto">{category.name}</strong>
          {questionAfter}
        </p>
        <Outcome state={deleteState} onClose={onClose} />
        <div className="flex flex-wrap gap-2">
          <SubmitButton tone="danger" pendingLabel={t("Categories.deleting")}>
            {t("Categories.deleteConfirm")}
          </SubmitButton>
          <button type="button" onClick={onClose} className={`${ROW_BUTTON} px-3 py-1.5 text-slate-700`}>
            {t("Categories.cancel")}
          </button>
        </div>
      </form>
    );
  }

  return null;
}
