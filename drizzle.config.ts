import { defineConfig } from "drizzle-kit";

// drizzle-kit only writes migrations here (`npm run db:generate`); applying them is `npm run db:migrate`,
// which serves both the embedded database and a PostgreSQL server.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
