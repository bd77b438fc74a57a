import { apiOk } from "./envelope";
import type { ApiCall, Operation } from "./types";

function whoami(call: ApiCall) {
  return apiOk(
    200,
    {
      key_id: call.install.keyId,
      store_id: call.store.id,
      type: "platform",
      rate_limit_tier: "enterprise",
      pilot: false,
      scopes: call.install.scopes,
      app: { app_id: call.app.id, client_id: call.app.clientId, install_id: call.install.id },
    },
    call.requestId,
  );
}

export const whoamiOperations: Operation[] = [{ method: "GET", path: "/v1/whoami", scope: null, handler: whoami }];
