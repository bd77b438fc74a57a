import type { Route } from "../http/types";
import { approve, deny } from "./approve";
import { authorize } from "./authorize";
import { loginRoutes } from "./login";
import { token } from "./token";

export const oauthRoutes: Route[] = [
  { method: "GET", path: "/oauth/apps/authorize", handler: authorize },
  { method: "POST", path: "/oauth/apps/approve", handler: approve },
  { method: "POST", path: "/oauth/apps/deny", handler: deny },
  { method: "POST", path: "/oauth/apps/token", handler: token },
  ...loginRoutes,
];
