/**
 * Reading and updating a .env file without losing anything in it: comments, blank lines, variables this
 * template does not know, and their order all stay as they were. Only the lines of the variables being set
 * change, in place; new variables go at the end.
 */

export type EnvFile = { lines: string[] };

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

export function parseEnvFile(text: string): EnvFile {
  const lines = text.split(/\r?\n/);
  // A trailing newline is not a blank line of its own.
  if (lines.at(-1) === "") lines.pop();
  return { lines };
}

function unquote(raw: string): string {
  const value = raw.trim();
  const quote = value[0];
  if ((quote === '"' || quote === "'" || quote === "`") && value.length >= 2) {
    const end = value.indexOf(quote, 1);
    if (end > 0) {
      const inner = value.slice(1, end);
      return quote === '"' ? inner.replace(/\\n/g, "\n").replace(/\\"/g, '"') : inner;
    }
  }
  // Unquoted: a # after whitespace starts a comment.
  return value.replace(/\s+#.*$/, "").trim();
}

/** The values assigned in the file (the last assignment of a name wins, as dotenv and Node read it). */
export function envValues(file: EnvFile): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of file.lines) {
    const match = ASSIGNMENT.exec(line);
    if (match?.[1] && !line.trimStart().startsWith("#")) values[match[1]] = unquote(match[2] ?? "");
  }
  return values;
}

function formatValue(value: string): string {
  if (/^[A-Za-z0-9_./:@+=,-]*$/.test(value)) return value;
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** A copy of the file with each of `updates` set: on its existing line when there is one, else appended. */
export function setEnvValues(file: EnvFile, updates: Record<string, string>, header?: string): EnvFile {
  const lines = [...file.lines];
  const pending = new Map(Object.entries(updates));
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const match = ASSIGNMENT.exec(lines[index] ?? "");
    const name = match?.[1];
    if (!name || lines[index]?.trimStart().startsWith("#") || !pending.has(name)) continue;
    lines[index] = `${name}=${formatValue(pending.get(name) ?? "")}`;
    pending.delete(name);
  }
  if (pending.size > 0) {
    if (lines.length > 0 && lines.at(-1)?.trim() !== "") lines.push("");
    if (header) lines.push(`# ${header}`);
    for (const [name, value] of pending) lines.push(`${name}=${formatValue(value)}`);
  }
  return { lines };
}

export function serializeEnvFile(file: EnvFile): string {
  return file.lines.length ? `${file.lines.join("\n")}\n` : "";
}
