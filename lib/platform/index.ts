import "server-only";

/**
 * The single boundary to the platform, and the only module code outside lib/platform imports (lint keeps it so).
 * Pages, actions, webhooks and scripts call a resource's operations on `platformFor(storeId)` or
 * `interactivePlatform(storeId)` and get the app's own types back; the token exchange and the doctor send their
 * requests through `platformFetch`/`postTokenForm`. Nothing else in the app calls fetch against the platform.
 */

export {
  createStoreClient,
  installStateRecorder,
  interactivePlatform,
  platformFor,
  type PlatformOptions,
  type ResourceOperations,
  type StoreClient,
  type StoreClientConfig,
} from "./client";
export type { InstallStateRecorder, InstallStateReport } from "./credentials";
export { INSTALL_STATE_CODES, PlatformError, isPlatformError, type InstallStateCode, type PlatformErrorInit, type PlatformErrorKind } from "./errors";
export { APP_USER_AGENT, DEFAULT_TIMEOUT_MS, INTERACTIVE_TIMEOUT_MS, platformFetch, type HttpMethod, type PlatformResponse, type RequestOptions, type Wire } from "./http";
export { newIdempotencyKey, deriveIdempotencyKey, isValidIdempotencyKey } from "./idempotency";
export type { Page, WriteOptions } from "./resource";
export { postTokenForm, tokenEndpointUrl, type InstalledStore, type TokenExchangeResult } from "./token-endpoint";
export * from "./resources";
