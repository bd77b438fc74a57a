"use client";

import { useActionState, useId, useRef } from "react";
import { createCategory } from "../actions";
import { FieldError } from "@/components/forms/field-error";
import { FormMessage } from "@/components/forms/form-message";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusFirstInvalid } from "@/components/forms/use-focus-invalid";
import { useT } from "@/components/i18n/client-messages";
import { initialActionState } from "@/lib/actions/validated-action";
import { NameField, ParentField, StatusField, type ParentOption } from "./category-fields";

/**
 * New category, at the top level or under a parent. The idempotency key arrives from the server with the page
 * (a hidden field), so sending this form twice creates one category; the action hands back the next key.
 */
export function CreateCategoryForm({
  storeId,
  idempotencyKey,
  parents,
}: {
  storeId: number;
  idempotencyKey: string;
  parents: ParentOption[];
}) {
  const t = useT();
  const [state, action] = useActionState(createCategory, initialActionState);
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, state);
  return (
    <form ref={formRef} action={action} aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-base font-semibold">
        {t("Categories.new")}
      </h2>
      <input type="hidden" name="storeId" value={storeId} />
      <input type="hidden" name="idempotencyKey" value={state.idempotencyKey ?? idempotencyKey} />
      <div className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
        <NameField id={`${id}-name`} state={state} defaultValue="" autoComplete="off" />
        <ParentField id={`${id}-parent`} state={state} defaultValue="0" parents={parents} />
        <StatusField id={`${id}-status`} state={state} defaultValue="active" />
      </div>
      <FieldError id={`${id}-form-error`} messages={state.fieldErrors?.form} />
      <FormMessage state={state} reinstallLabel={t("Errors.reinstall")} />
      <SubmitButton pendingLabel={t("Categories.creating")}>{t("Categories.create")}</SubmitButton>
    </form>
  );
}
