import type { Handler, Route } from "./types";

export type Match = { handler: Handler; params: Record<string, string> };

/**
 * Paths are literal segments, `:name` parameters, or a trailing `*` that captures the rest (as params["*"]).
 * Routes are tried in the order given, so specific routes go before catch-alls.
 */
export function createRouter(routes: Route[]) {
  const compiled = routes.map((route) => ({ route, segments: route.path.split("/").filter(Boolean) }));
  return {
    match(method: string, pathname: string): Match | null {
      const parts = pathname.split("/").filter(Boolean);
      for (const { route, segments } of compiled) {
        if (route.method !== method) continue;
        const params = matchSegments(segments, parts);
        if (params) return { handler: route.handler, params };
      }
      return null;
    },
    /** Whether any method is routed at this path (to answer 405 rather than 404). */
    hasPath(pathname: string): boolean {
      const parts = pathname.split("/").filter(Boolean);
      return compiled.some(({ segments }) => matchSegments(segments, parts) !== null);
    },
  };
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index]!;
    if (segment === "*") {
      params["*"] = parts.slice(index).join("/");
      return params;
    }
    const part = parts[index];
    if (part === undefined) return null;
    if (segment.startsWith(":")) {
      params[segment.slice(1)] = safeDecode(part);
    } else if (segment !== part) {
      return null;
    }
  }
  return parts.length === segments.length ? params : null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
