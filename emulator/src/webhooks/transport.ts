/**
 * One webhook POST and how it went. Redirects are not followed (a 3xx is a failure), and the answer must come
 * within the timeout; the answer's first 500 characters are kept for the delivery log.
 */
export type PostResult = {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
  responseSnippet: string;
};

const SNIPPET_CHARS = 500;

function describeFailure(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; errors?: { code?: unknown }[] } | undefined) : undefined;
  // "localhost" resolves to two addresses; both refusals come back together in an AggregateError.
  const rawCode = cause?.code ?? cause?.errors?.[0]?.code;
  const code = typeof rawCode === "string" ? rawCode : null;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host name not found";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "connection reset";
  if (code) return `connection error (${code})`;
  if (error instanceof Error && error.name === "AbortError") return "cancelled: emulator stopping";
  return "connection error";
}

export async function postWebhook(
  fetchImpl: typeof fetch,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  stopSignal: AbortSignal,
): Promise<PostResult> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([timeout, stopSignal]);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let response: Response;
  try {
    response = await fetchImpl(url, { method: "POST", headers, body, redirect: "manual", signal });
  } catch (error) {
    return { ok: false, status: null, error: describeFailure(error, timeout.aborted, timeoutMs), durationMs: elapsed(), responseSnippet: "" };
  }
  const durationMs = elapsed();
  let snippet = "";
  try {
    snippet = (await response.text()).slice(0, SNIPPET_CHARS);
  } catch {
    // The status already decided the attempt; a body cut short only shortens the log.
  }
  // An opaque redirect (status 0) is still a redirect that was not followed.
  const status = response.type === "opaqueredirect" ? null : response.status;
  const ok = status !== null && status >= 200 && status < 300;
  let error: string | null = null;
  if (!ok) {
    error = status === null || (status >= 300 && status < 400) ? "redirect not followed" : `answered HTTP ${status}`;
  }
  return { ok, status, error, durationMs, responseSnippet: snippet };
}
