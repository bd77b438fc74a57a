"use client";

import { useActionState, useId, useRef, useState, type FormEvent } from "react";
import { createCategory } from "../actions";
import { FieldError } from "@/components/forms/field-error";
import { FormMessage } from "@/components/forms/form-message";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusFirstInvalid } from "@/components/forms/use-focus-invalid";
import { useT } from "@/components/i18n/client-messages";
import { initialActionState } from "@/lib/actions/validated-action";
import { NameField, ParentField, StatusField, type ParentOption } from "./category-fields";

/** Names compared as a merchant reads them: case, spacing and Unicode form aside. */
export function sameNameKey(name: string): string {
  return name.normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase();
}

function typedName(form: HTMLFormElement): string {
  const value = new FormData(form).get("name");
  return typeof value === "string" ? value : "";
}

/**
 * New category, at the top level or under a parent. The idempotency key arrives from the server with the page
 * (a hidden field), so sending this form twice creates one category; the action hands back the next key.
 * The platform accepts a second category of the same name (it only makes the slug unique), which is rarely
 * meant: a name already in the store (`names`) is flagged before anything is sent, and a second press sends it.
 */
export function CreateCategoryForm({
  storeId,
  idempotencyKey,
  parents,
  names = [],
}: {
  storeId: number;
  idempotencyKey: string;
  parents: ParentOption[];
  names?: readonly string[];
}) {
  const t = useT();
  const [state, action] = useActionState(createCategory, initialActionState);
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, state);
  // The name flagged, for this form answer only: after a save (a new answer) the flag is gone.
  const [flagged, setFlagged] = useState<{ key: string; name: string; answer: string | undefined } | null>(null);
  const shownFlag = flagged && flagged.answer === state.resultId ? flagged : null;
  const checkDuplicate = (event: FormEvent<HTMLFormElement>) => {
    const name = typedName(event.currentTarget);
    const key = sameNameKey(name);
    if (key === "" || shownFlag?.key === key || !names.some((existing) => sameNameKey(existing) === key)) return;
    event.preventDefault();
    setFlagged({ key, name: name.trim(), answer: state.resultId });
    event.currentTarget.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
  };
  const clearStaleFlag = (event: FormEvent<HTMLFormElement>) => {
    if (shownFlag && sameNameKey(typedName(event.currentTarget)) !== shownFlag.key) setFlagged(null);
  };
  return (
    <form
      ref={formRef}
      action={action}
      onSubmit={checkDuplicate}
      onInput={clearStaleFlag}
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
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
      {shownFlag ? (
        <p role="alert" className="text-sm font-medium text-amber-900" data-duplicate-name>
          {t("Categories.duplicateName", { name: `\u2068${shownFlag.name}\u2069` })}
        </p>
      ) : null}
      <FieldError id={`${id}-form-error`} messages={state.fieldErrors?.form} />
      <FormMessage state={state} reinstallLabel={t("Errors.reinstall")} />
      <SubmitButton pendingLabel={t("Categories.creating")}>{t("Categories.create")}</SubmitButton>
    </form>
  );
}
