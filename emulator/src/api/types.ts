import type { EmuRequest, EmuResponse, EmulatorContext } from "../http/types";
import type { App, Install, Store } from "../model";

/** One authenticated REST call, after the token, limits and install state were checked. */
export type ApiCall = {
  request: EmuRequest;
  ctx: EmulatorContext;
  install: Install;
  app: App;
  store: Store;
  requestId: string;
  params: Record<string, string>;
};

export type Operation = {
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT";
  path: string;
  /** null: any valid install token (whoami). */
  scope: string | null;
  handler(call: ApiCall): EmuResponse;
};
