import "server-only";
import type { HttpMethod, PlatformResponse, RequestOptions } from "./http";

/** What the operation modules need from a store client: one paced, retried, logged call. */
export type Caller = (method: HttpMethod, path: string, options?: RequestOptions) => Promise<PlatformResponse>;

export type WriteOptions = {
  /** Hand in the key rendered into the form so a double submission replays instead of writing twice. */
  idempotencyKey?: string;
};
