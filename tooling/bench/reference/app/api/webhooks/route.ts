import { floorReceiver, type FloorReceiver } from "../../../lib/floor-webhook";

// The floor route: one plain route handler around the floor receiver (see lib/floor-webhook.ts).
export const dynamic = "force-dynamic";

let receive: FloorReceiver | undefined;

export async function POST(request: Request): Promise<Response> {
  receive ??= floorReceiver(process.env.DATABASE_URL!, process.env.SVC_WEBHOOK_SECRET!);
  const rawBody = Buffer.from(await request.arrayBuffer());
  const answer = await receive(rawBody, request.headers.get("x-svc-signature"), request.headers.get("x-svc-timestamp"));
  return new Response(answer.body, { status: answer.status, headers: { "content-type": "application/json" } });
}
