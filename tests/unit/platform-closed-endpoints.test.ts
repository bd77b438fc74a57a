import { describe, expect, it } from "vitest";
import { assertOpenEndpoint, canonicalPath } from "@/lib/platform/closed-endpoints";
import { PlatformError } from "@/lib/platform";

function refusal(method: string, path: string): PlatformError | null {
  try {
    assertOpenEndpoint(method, path);
    return null;
  } catch (error) {
    return error as PlatformError;
  }
}

describe("closed endpoints", () => {
  it.each([
    ["GET", "/v1/keys"],
    ["DELETE", "/v1/keys/key_123"],
    ["GET", "/v1/webhooks"],
    ["POST", "/v1/webhooks/42/test"],
    ["GET", "/v1/changes"],
    ["POST", "/v1/changes/17/undo"],
    ["POST", "/v1/landing-pages/generate"],
  ])("refuses %s %s locally", (method, path) => {
    const error = refusal(method, path);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error?.kind).toBe("local");
    expect(error?.code).toBe("closed_endpoint");
    expect(error?.isClosedEndpoint).toBe(true);
    expect(error?.status).toBeNull();
  });

  it.each([
    "/v1//Keys/",
    "/v1/categories/../keys",
    "/v1/%6Beys",
    "/v1/x/%2e%2e/webhooks",
    "/v1/changes?limit=1",
    "/v1/landing-pages/generate/",
  ])("sees through the disguise %s", (path) => {
    expect(refusal("GET", path)?.code).toBe("closed_endpoint");
  });

  it.each(["/v1/categories", "/v1/orders", "/v1/whoami", "/v1/keyboards", "/v1/landing-pages", "/v1/products/changes-log"])(
    "lets %s through",
    (path) => {
      expect(refusal("GET", path)).toBeNull();
    },
  );

  it("canonicalises paths the way a server routes them", () => {
    expect(canonicalPath("/v1//categories/")).toBe("/v1/categories");
    expect(canonicalPath("/v1/a/./b/../c?x=1")).toBe("/v1/a/c");
  });
});
