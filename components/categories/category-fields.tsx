import type { ReactNode } from "react";
import { FieldError } from "@/components/forms/field-error";
import { fieldProps, typed } from "@/components/forms/field-props";
import type { ActionState } from "@/lib/actions/validated-action";

/** A category that can hold subcategories: the platform allows two levels, so only top-level ones qualify. */
export type ParentOption = { id: number; name: string };

const CONTROL =
  "w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm aria-[invalid=true]:border-rose-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900";

type FieldProps = {
  /** The control's id; its error paragraph is `${id}-error`. */
  id: string;
  /** The form's last answer: what was typed before a refusal, and the refusal's messages for this field. */
  state: ActionState;
  defaultValue: string;
};

function controlProps(id: string, name: string, state: ActionState) {
  return { id, name, className: CONTROL, ...fieldProps(state, name, `${id}-error`) };
}

function Field({
  id,
  name,
  label,
  state,
  hint,
  children,
}: {
  id: string;
  name: string;
  label: string;
  state: ActionState;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      <FieldError id={`${id}-error`} messages={state.fieldErrors?.[name]} />
      {hint}
    </div>
  );
}

export function NameField({ id, state, defaultValue, autoComplete }: FieldProps & { autoComplete?: string }) {
  return (
    <Field id={id} name="name" label="Name" state={state}>
      <input dir="auto" required autoComplete={autoComplete} defaultValue={typed(state, "name", defaultValue)} {...controlProps(id, "name", state)} />
    </Field>
  );
}

// A select keeps the defaultValue it was mounted with: keyed by the answer, it remounts, so after a refusal it shows
// the choice that was sent rather than the one the page first rendered.

export function StatusField({ id, state, defaultValue }: FieldProps) {
  return (
    <Field id={id} name="status" label="Status" state={state}>
      <select key={state.resultId ?? "initial"} defaultValue={typed(state, "status", defaultValue)} {...controlProps(id, "status", state)}>
        <option value="active">Active</option>
        <option value="inactive">Inactive</option>
      </select>
    </Field>
  );
}

export function ParentField({ id, state, defaultValue, parents, hint }: FieldProps & { parents: ParentOption[]; hint?: ReactNode }) {
  return (
    <Field id={id} name="parentId" label="Parent" state={state} hint={hint}>
      <select key={state.resultId ?? "initial"} defaultValue={typed(state, "parentId", defaultValue)} {...controlProps(id, "parentId", state)}>
        <option value="0">None (top level)</option>
        {parents.map((parent) => (
          <option key={parent.id} value={parent.id}>
            {parent.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
