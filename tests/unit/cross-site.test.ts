import { describe, expect, it } from "vitest";
import { isCrossSiteRequest, isSafeMethod } from "@/lib/http/cross-site";

const APP = "https://app.example";

describe("cross-site requests", () => {
  it("trusts the browser's Sec-Fetch-Site first", () => {
    expect(isCrossSiteRequest(new Headers({ "sec-fetch-site": "same-origin" }), APP)).toBe(false);
    expect(isCrossSiteRequest(new Headers({ "sec-fetch-site": "none" }), APP)).toBe(false);
    expect(isCrossSiteRequest(new Headers({ "sec-fetch-site": "cross-site", origin: APP }), APP)).toBe(true);
    // A sibling subdomain is another application.
    expect(isCrossSiteRequest(new Headers({ "sec-fetch-site": "same-site" }), APP)).toBe(true);
  });

  it("falls back to Origin, and lets through requests that no browser made", () => {
    expect(isCrossSiteRequest(new Headers({ origin: APP }), APP)).toBe(false);
    expect(isCrossSiteRequest(new Headers({ origin: "https://evil.example" }), APP)).toBe(true);
    expect(isCrossSiteRequest(new Headers({ origin: "null" }), APP)).toBe(true);
    expect(isCrossSiteRequest(new Headers({ origin: "https://app.example.evil.example" }), APP)).toBe(true);
    expect(isCrossSiteRequest(new Headers(), APP)).toBe(false);
  });

  it("names the methods that change nothing", () => {
    expect(["GET", "HEAD", "OPTIONS"].every(isSafeMethod)).toBe(true);
    expect(["POST", "PUT", "PATCH", "DELETE"].some(isSafeMethod)).toBe(false);
  });
});
