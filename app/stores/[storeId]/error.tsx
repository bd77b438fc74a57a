"use client";

import { ErrorPanel } from "@/components/error-panel";

/**
 * Last line for a store page that failed in a way it did not catch itself. The thrown error is never displayed:
 * in production it arrives redacted anyway, and its digest is enough to find the server's log line.
 */
export default function StoreError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error && typeof error === "object" && "digest" in error ? String((error as { digest?: unknown }).digest ?? "") : "";
  return (
    <ErrorPanel
      title="This page could not be loaded"
      message="Something went wrong while loading it. This is usually temporary: try again in a moment."
    >
      <button
        type="button"
        onClick={() => retry()}
        className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        Try again
      </button>
      {digest ? <span className="text-xs text-slate-500">Reference: {digest}</span> : null}
    </ErrorPanel>
  );
}
