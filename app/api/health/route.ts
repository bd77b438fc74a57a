import { getDb, isDatabaseOpening } from "@/lib/database/app-database";
import { requestLog } from "@/lib/request-id";
import { checkHealth } from "./check";

/** Probed by load balancers and uptime monitors: never cached, never prerendered. */
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const { report, problem } = await checkHealth(getDb, { isOpening: isDatabaseOpening });
  if (report.status === "error") {
    // The reason goes to the log (redacted), never into the answer.
    (await requestLog()).warn("health check failed", { checks: report.checks, error: problem });
  }
  return Response.json(report, {
    status: report.status === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
