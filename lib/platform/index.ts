import "server-only";

/**
 * The single boundary to the platform's REST API, and the only module code outside lib/platform imports (lint keeps
 * it so). Pages, actions, webhooks and scripts call domain functions on `platformFor(storeId)` or
 * `interactivePlatform(storeId)`; nothing else in the app calls fetch against the platform.
 */

export { APP_USER_AGENT, installStateRecorder, interactivePlatform, platformFor, type PlatformOptions } from "./presets";
export { createStoreClient, type StoreClient, type StoreClientConfig } from "./client";
export type { InstallStateRecorder, InstallStateReport } from "./credentials";
export { INSTALL_STATE_CODES, PlatformError, isPlatformError, type InstallStateCode, type PlatformErrorInit, type PlatformErrorKind } from "./errors";
export { parsePlatformOrder } from "./parse-order";
export { parseAnalyticsReport } from "./parse-analytics";
export { newIdempotencyKey, deriveIdempotencyKey, isValidIdempotencyKey } from "./idempotency";
export type { HttpMethod, PlatformResponse, RequestOptions } from "./http";
export type { CategoryListParams, ReorderItem } from "./categories";
export type { OrderListParams } from "./orders";
export type { CustomerListParams } from "./customers";
export { ANALYTICS_RANGES, MAX_CUSTOM_RANGE_DAYS, customRangeProblem, type AnalyticsParams, type CustomRangeProblem } from "./analytics";
export type * from "./types";
