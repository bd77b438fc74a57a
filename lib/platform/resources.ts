import "server-only";

/**
 * The platform's resources, one file each (schema, the app's type, reshape, operations). Every `defineResource`
 * exported from a file listed here becomes `client.<its name>` on every store client, and everything else the file
 * exports (the app's types, helpers) is public through @/lib/platform. A new resource is its file plus one line here.
 */

export * from "./whoami";
export * from "./categories";
export * from "./orders";
export * from "./customers";
export * from "./analytics";
