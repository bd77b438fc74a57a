/**
 * The reference app starts nothing. Without a file of its own here, Turbopack (whose root is the project, for the
 * shared node_modules) built the app's instrumentation.ts into the reference: the floor then opened the database and
 * ran a job worker, with SVC_API_URL pointing nowhere, which took the install's order import from the app under test.
 */
export function register(): void {}
