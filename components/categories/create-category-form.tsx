"use client";

import { useActionState, useId, useRef } from "react";
import { createCategory } from "@/app/stores/[storeId]/categories/actions";
import { FieldError } from "@/components/forms/field-error";
import { fieldProps, typed } from "@/components/forms/field-props";
import { FormMessage } from "@/components/forms/form-message";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusFirstInvalid } from "@/components/forms/use-focus-invalid";
import { initialActionState } from "@/lib/actions/validated-action";
import type { ParentOption } from "./category-row";

const INPUT =
  "w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm aria-[invalid=true]:border-rose-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900";

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
  const [state, action] = useActionState(createCategory, initialActionState);
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, state);
  return (
    <form ref={formRef} action={action} aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-base font-semibold">
        New category
      </h2>
      <input type="hidden" name="storeId" value={storeId} />
      <input type="hidden" name="idempotencyKey" value={state.idempotencyKey ?? idempotencyKey} />
      <div className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
        <div>
          <label htmlFor={`${id}-name`} className="text-sm font-medium text-slate-700">
            Name
          </label>
          <input
            id={`${id}-name`}
            name="name"
            dir="auto"
            required
            autoComplete="off"
            defaultValue={typed(state, "name", "")}
            className={INPUT}
            {...fieldProps(state, "name", `${id}-name-error`)}
          />
          <FieldError id={`${id}-name-error`} messages={state.fieldErrors?.name} />
        </div>
        <div>
          <label htmlFor={`${id}-parent`} className="text-sm font-medium text-slate-700">
            Parent
          </label>
          <select
            key={state.resultId ?? "initial"}
            id={`${id}-parent`}
            name="parentId"
            defaultValue={typed(state, "parentId", "0")}
            className={INPUT}
            {...fieldProps(state, "parentId", `${id}-parent-error`)}
          >
            <option value="0">None (top level)</option>
            {parents.map((parent) => (
              <option key={parent.id} value={parent.id}>
                {parent.name}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-parent-error`} messages={state.fieldErrors?.parentId} />
        </div>
        <div>
          <label htmlFor={`${id}-status`} className="text-sm font-medium text-slate-700">
            Status
          </label>
          <select
            key={state.resultId ?? "initial"}
            id={`${id}-status`}
            name="status"
            defaultValue={typed(state, "status", "active")}
            className={INPUT}
            {...fieldProps(state, "status", `${id}-status-error`)}
          >
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </select>
          <FieldError id={`${id}-status-error`} messages={state.fieldErrors?.status} />
        </div>
      </div>
      <FieldError id={`${id}-form-error`} messages={state.fieldErrors?.form} />
      <FormMessage state={state}>
        {state.reinstall ? (
          <a href="/install" className="ml-2 font-medium underline underline-offset-2">
            Reinstall the app
          </a>
        ) : null}
      </FormMessage>
      <SubmitButton pendingLabel="Creating…">Create category</SubmitButton>
    </form>
  );
}
