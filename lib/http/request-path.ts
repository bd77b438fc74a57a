/** The request's path and query, set by proxy.ts, for pages that offer to come back to it (the sign-in of a 404). */
export const REQUEST_PATH_HEADER = "x-app-request-path";
