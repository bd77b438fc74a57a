/** A database URL safe to print: the password replaced, anything unparseable not echoed at all. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable database URL)";
  }
}
