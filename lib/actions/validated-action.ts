import { getTranslations } from "next-intl/server";
import { z } from "zod";

/**
 * The one shape every server action returns, read by `useActionState` on the client. It is plain data (it crosses
 * the server/client boundary), so it never carries an Error, a stack or a secret.
 */
export type ActionState = {
  ok: boolean;
  /** A sentence for the merchant, shown next to the form that was submitted. */
  message?: string;
  /** Messages per form field name, shown inline under that field. */
  fieldErrors?: Record<string, string[]>;
  /** What the merchant typed, so a refused form keeps its input (React resets forms after an action). */
  values?: Record<string, string>;
  /**
   * The idempotency key the form must send next time. The platform stores 4xx answers under a key, so a
   * corrected form needs a fresh key; after a 429 or 5xx the same key must be sent again.
   */
  idempotencyKey?: string;
  /** Seconds to wait after a rate limit, when the platform said. */
  retryAfter?: number;
  /** What the form acted on is gone or changed elsewhere: offer to reload the data. */
  reload?: boolean;
  /** The fix is to install the app again. */
  reinstall?: boolean;
  /**
   * New for every answer. Forms key their selects on it: React resets a form after an action, and a select goes
   * back to the option it was first rendered with unless it is mounted again with the typed value as default.
   */
  resultId?: string;
};

export const initialActionState: ActionState = { ok: false };

/** Form fields as strings; files and repeated keys are not used by these forms. */
export function formValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    // Next adds its own $ACTION_* fields to progressively enhanced forms; they are not the merchant's input.
    if (typeof value === "string" && !key.startsWith("$ACTION")) values[key] = value;
  }
  return values;
}

/**
 * Schemas name their messages by catalogue key ("Validation.nameRequired"); zod's own English messages (a value
 * of the wrong type, which only a tampered form sends) all read as "Validation.invalid".
 */
export const VALIDATION_PREFIX = "Validation.";

/** Zod issues grouped by top-level field name and translated; issues without a path go under "form". */
export function issuesByField(error: z.ZodError, t: (key: string, values?: Record<string, string | number>) => string): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : "form";
    const key = issue.message.startsWith(VALIDATION_PREFIX) ? issue.message : "Validation.invalid";
    const max = "maximum" in issue && typeof issue.maximum === "number" ? issue.maximum : 0;
    (grouped[field] ??= []).push(t(key, { max }));
  }
  return grouped;
}

/**
 * Wraps a server action body with zod validation of its form data (use z.coerce for numbers: form values are
 * strings). Invalid input never reaches the body: it comes back as field errors with the typed values.
 */
export function validatedAction<S extends z.ZodType>(
  schema: S,
  action: (data: z.output<S>, formData: FormData) => Promise<ActionState>,
): (previous: ActionState, formData: FormData) => Promise<ActionState> {
  return async (_previous, formData) => {
    const values = formValues(formData);
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const t = await getTranslations();
      return {
        resultId: globalThis.crypto.randomUUID(),
        ok: false,
        message: t("Validation.checkFields"),
        fieldErrors: issuesByField(parsed.error, t),
        values,
        // Nothing was sent to the platform, so the form's key is still unused and stays valid.
        idempotencyKey: values.idempotencyKey,
      };
    }
    return { ...(await action(parsed.data, formData)), resultId: globalThis.crypto.randomUUID() };
  };
}
