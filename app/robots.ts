import type { MetadataRoute } from "next";

/**
 * Nothing here is for search engines: every page past the landing page belongs to a signed-in merchant, and the
 * OAuth and webhook routes are for the platform. Served by Next like any route, so it carries the same headers.
 */
export default function robots(): MetadataRoute.Robots {
  return { rules: { userAgent: "*", disallow: "/" } };
}
