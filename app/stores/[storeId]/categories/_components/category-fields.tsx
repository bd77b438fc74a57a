import type { ReactNode } from "react";
import { FieldError } from "@/components/forms/field-error";
import { fieldProps, typed } from "@/components/forms/field-props";
import { useT } from "@/components/i18n/client-messages";
import type { ActionState } from "@/lib/actions/validated-action";
import { CATEGORY_NAME_MAX_LENGTH } from "../category-rules";

/** A category that can hold subcategories: the platform allows two levels, so only top-level ones qualify. */
export type ParentOption = { id: number; name: string };

/** A field's look: at least 44 px high on a phone (WCAG 2.5.5), full width everywhere. */
const CONTROL =
  "w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm max-sm:min-h-11 aria-[invalid=true]:border-rose-500 disabled:bg-slate-100 disabled:text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900";

type FieldProps = {
  /** The control's id; its error paragraph is `${id}-error`, its hint `${id}-hint`. */
  id: string;
  /** The form's last answer: what was typed before a refusal, and the refusal's messages for this field. */
  state: ActionState;
  defaultValue: string;
};

function controlProps(id: string, name: string, state: ActionState, hint?: boolean) {
  const props = fieldProps(state, name, `${id}-error`);
  const describedBy = [props["aria-describedby"], hint ? `${id}-hint` : undefined].filter(Boolean).join(" ") || undefined;
  return { id, name, className: CONTROL, ...props, "aria-describedby": describedBy };
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
    <div className="min-w-0">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      <FieldError id={`${id}-error`} messages={state.fieldErrors?.[name]} />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function NameField({ id, state, defaultValue, autoComplete }: FieldProps & { autoComplete?: string }) {
  const t = useT();
  return (
    <Field id={id} name="name" label={t("Categories.name")} state={state} hint={t("Categories.nameHint", { max: CATEGORY_NAME_MAX_LENGTH })}>
      <input
        dir="auto"
        required
        maxLength={CATEGORY_NAME_MAX_LENGTH}
        autoComplete={autoComplete}
        defaultValue={typed(state, "name", defaultValue)}
        {...controlProps(id, "name", state, true)}
      />
    </Field>
  );
}

// A select keeps the defaultValue it was mounted with: keyed by the answer, it remounts, so after a refusal it shows
// the choice that was sent rather than the one the page first rendered.

export function StatusField({ id, state, defaultValue }: FieldProps) {
  const t = useT();
  return (
    <Field id={id} name="status" label={t("Categories.status")} state={state}>
      <select key={state.resultId ?? "initial"} defaultValue={typed(state, "status", defaultValue)} {...controlProps(id, "status", state)}>
        <option value="active">{t("Categories.active")}</option>
        <option value="inactive">{t("Categories.inactive")}</option>
      </select>
    </Field>
  );
}

/**
 * The parent choice. A category with subcategories must stay at the top level (the platform has two levels), so
 * for it the choice is disabled and the hint says why, instead of letting the platform refuse the save.
 */
export function ParentField({ id, state, defaultValue, parents, locked }: FieldProps & { parents: ParentOption[]; locked?: boolean }) {
  const t = useT();
  return (
    <Field id={id} name="parentId" label={t("Categories.parent")} state={state} hint={locked ? t("Categories.parentLocked") : undefined}>
      <select
        key={state.resultId ?? "initial"}
        disabled={locked}
        defaultValue={typed(state, "parentId", defaultValue)}
        {...controlProps(id, "parentId", state, locked)}
      >
        <option value="0">{t("Categories.topLevel")}</option>
        {parents.map((parent) => (
          <option key={parent.id} value={parent.id}>
            {parent.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
