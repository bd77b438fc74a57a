"use client";

import { useEffect, type RefObject } from "react";
import type { ActionState } from "@/lib/actions/validated-action";

/** After a refused submission, keyboard focus goes to the first field the refusal names, so it is read out and fixable. */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, state: ActionState): void {
  useEffect(() => {
    if (state.ok || !state.fieldErrors) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, state]);
}
