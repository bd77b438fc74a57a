// Global types the app's files expect, which the root gets from next-env.d.ts (`next typegen`) and instrumentation.ts:
// Next's own, and @vercel/otel's `opentelemetry` option of fetch (lib/platform/http.ts).
/// <reference types="next" />
import type {} from "@vercel/otel";
