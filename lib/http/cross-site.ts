/**
 * Whether a browser request was made by another site. Browsers send `Sec-Fetch-Site` on every request, and it
 * cannot be set by a page's script; older browsers are judged by `Origin`. A request with neither (a scheduler, a
 * script, curl) is no browser's, so there is no cookie-riding to refuse.
 *
 * "same-site" counts as cross-site: a sibling subdomain is another application, possibly someone else's.
 * "none" is a navigation the person started (typed URL, bookmark), never another site's.
 */
export function isCrossSiteRequest(headers: Headers, appOrigin: string): boolean {
  const fetchSite = headers.get("sec-fetch-site");
  if (fetchSite !== null) return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = headers.get("origin");
  if (origin === null) return false;
  return origin !== appOrigin;
}

/** Methods that change nothing, by HTTP's rules and by this app's routes. */
export function isSafeMethod(method: string): boolean {
  return method === "GET" || method === "HEAD" || method === "OPTIONS";
}
