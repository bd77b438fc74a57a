import { describe, expect, it } from "vitest";
import { envValues, parseEnvFile, serializeEnvFile, setEnvValues } from "@/scripts/support/env-file";

describe(".env editing for npm run setup", () => {
  const original = [
    "# Deploy notes: keep me",
    "export APP_URL=https://old.example.com",
    "",
    "MY_FLAG=on # a comment",
    'QUOTED="two words"',
    "# SVC_CLIENT_ID=svcapp_commented_out",
    "SVC_CLIENT_ID=svcapp_first",
    "SVC_CLIENT_ID=svcapp_second",
  ].join("\n");

  it("reads values as Node reads them: quotes removed, comments ignored, the last assignment wins", () => {
    expect(envValues(parseEnvFile(original))).toEqual({
      APP_URL: "https://old.example.com",
      MY_FLAG: "on",
      QUOTED: "two words",
      SVC_CLIENT_ID: "svcapp_second",
    });
  });

  it("changes only the lines of the variables set, appends new ones, and keeps every other line", () => {
    const updated = serializeEnvFile(
      setEnvValues(parseEnvFile(original), { APP_URL: "https://orders.example.com", SVC_CLIENT_ID: "svcapp_new", SESSION_SECRET: "s e#cret" }, "Written by npm run setup"),
    );
    expect(updated).toBe(
      [
        "# Deploy notes: keep me",
        "APP_URL=https://orders.example.com",
        "",
        "MY_FLAG=on # a comment",
        'QUOTED="two words"',
        "# SVC_CLIENT_ID=svcapp_commented_out",
        "SVC_CLIENT_ID=svcapp_first",
        "SVC_CLIENT_ID=svcapp_new",
        "",
        "# Written by npm run setup",
        'SESSION_SECRET="s e#cret"',
        "",
      ].join("\n"),
    );
    expect(envValues(parseEnvFile(updated))).toMatchObject({ SVC_CLIENT_ID: "svcapp_new", SESSION_SECRET: "s e#cret", MY_FLAG: "on" });
  });

  it("writes a new file from nothing", () => {
    expect(serializeEnvFile(setEnvValues(parseEnvFile(""), { APP_URL: "https://a.example.com" }))).toBe("APP_URL=https://a.example.com\n");
  });
});
