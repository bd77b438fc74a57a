import { desc, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { appEnvironments } from "@/db/schema";

/** The deployments that migrated this database (db/schema.ts appEnvironments). */
export type AppEnvironment = { environment: string; appUrl: string; migratedAt: Date };

/** Notes that a deployment of `environment` at `appUrl` migrated this database (npm run db:migrate). */
export async function recordAppEnvironment(db: Db, input: AppEnvironment): Promise<void> {
  await db
    .insert(appEnvironments)
    .values(input)
    .onConflictDoUpdate({ target: [appEnvironments.environment, appEnvironments.appUrl], set: { migratedAt: input.migratedAt } });
}

/** Every deployment recorded, the latest first; null when the table does not exist yet (migrations pending). */
export async function listAppEnvironments(db: Db): Promise<AppEnvironment[] | null> {
  const [exists] = rowsOf<{ present: boolean | null }>(await db.execute(sql`select to_regclass('public.app_environments') is not null as present`));
  if (!exists?.present) return null;
  return db.select().from(appEnvironments).orderBy(desc(appEnvironments.migratedAt));
}
