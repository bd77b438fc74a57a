"use server";

import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { getDb } from "@/lib/database/app-database";
import { initialActionState, validatedAction, type ActionState } from "@/lib/actions/validated-action";
import { getJobs, workJobsAfterResponse } from "@/lib/jobs/app";
import { retryBackfill } from "@/lib/jobs/backfill";
import { storeHref } from "@/lib/sections";
import { requireStore } from "@/lib/tenancy";

/** The merchant's retry of a failed order import: it goes on from the page it reached. */
export const retryOrderImport = validatedAction(z.object({ storeId: z.string() }), async (input): Promise<ActionState> => {
  const access = await requireStore(input.storeId);
  const [db, jobs, t] = await Promise.all([getDb(), getJobs(), getTranslations()]);
  const ok = await retryBackfill(jobs, db, access.storeId);
  if (ok) workJobsAfterResponse();
  revalidatePath(storeHref(access.storeId), "layout");
  return { ok, message: ok ? t("OrderImport.retried") : undefined };
});

/** The same for a plain form (no client script needed): the page re-renders with the import running again. */
export async function retryOrderImportForm(formData: FormData): Promise<void> {
  await retryOrderImport(initialActionState, formData);
}
