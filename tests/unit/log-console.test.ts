import { afterEach, describe, expect, it } from "vitest";
import { configureLog, setLogSink } from "@/lib/log";
import { consoleCallToLine, routeConsoleThroughLog } from "@/lib/log-console";

/** A drizzle query error as Next prints it after a failed render: the SQL and a customer's phone in the message. */
function failedQuery(): Error {
  const cause = Object.assign(new Error('value "9999999999999999999" is out of range for type bigint'), { code: "22003" });
  return new Error(
    "Failed query: select \"customer_name\" from \"orders\" where \"customer_phone\" = $1\nparams: +213555123456",
    { cause },
  );
}

const undo: (() => void)[] = [];
afterEach(() => {
  while (undo.length) undo.pop()?.();
});

function capture(): string[] {
  const lines: string[] = [];
  undo.push(setLogSink((line) => lines.push(line)));
  undo.push(configureLog({ level: "debug", format: "json" }));
  return lines;
}

describe("console output in production", () => {
  it("splits a console call into a message and the error", () => {
    const error = new Error("boom");
    expect(consoleCallToLine(["⨯ render failed in %s", "/stores/101", error])).toEqual({
      message: "⨯ render failed in /stores/101",
      fields: { error, source: "console" },
    });
    expect(consoleCallToLine([error]).message).toBe("unhandled error");
    expect(consoleCallToLine(["plain", 3]).fields).toEqual({ source: "console" });
  });

  it("sends Next's console.error of a failed query through the redacting logger, without SQL, values or stack", () => {
    const lines = capture();
    const saved = { error: console.error, warn: console.warn, info: console.info, log: console.log, debug: console.debug };
    undo.push(() => Object.assign(console, saved));
    routeConsoleThroughLog();

    console.error(failedQuery());
    console.warn("token svcpk_live_abcdef0123456789 refused");

    expect(lines).toHaveLength(2);
    const [errorLine, warnLine] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(errorLine).toMatchObject({ level: "error", msg: "unhandled error", source: "console" });
    const text = lines.join("\n");
    expect(text).not.toContain("select");
    expect(text).not.toContain("+213555123456");
    expect(text).not.toContain("at ");
    expect(text).toContain("out of range for type bigint");
    expect(text).toContain("withheld");
    expect(warnLine).toMatchObject({ level: "warn", msg: "token svcpk_live_[redacted] refused" });
  });
});
