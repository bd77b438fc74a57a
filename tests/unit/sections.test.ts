import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StoreCard } from "@/components/store-card";
import { INSTALL_STATES, mayCallPlatform } from "@/lib/installs/state";
import { PAGE_SCOPES, SECTIONS, SWITCHER_SECTION, sectionOf, storeHref, storeIdOfPath, storesHref } from "@/lib/sections";
import { translator } from "../helpers/i18n";

describe("storeHref", () => {
  it("builds a store's home, a section, a page below it and a query, each part encoded", () => {
    expect(storeHref(101)).toBe("/stores/101");
    expect(storeHref("101", "overview", { range: "30d" })).toBe("/stores/101?range=30d");
    expect(storeHref(101, "orders")).toBe("/stores/101/orders");
    expect(storeHref(101, ["orders", 42])).toBe("/stores/101/orders/42");
    expect(storeHref("1 0", ["orders", "a/b"])).toBe("/stores/1%200/orders/a%2Fb");
    expect(storeHref(101, "categories")).toBe("/stores/101/categories");
  });

  it("leaves empty query values out and encodes the others", () => {
    expect(storeHref(101, "orders", { status: null, phone: "+213 555", cursor: "" })).toBe("/stores/101/orders?phone=%2B213+555");
    expect(storeHref(101, "orders", { status: "new", phone: undefined, cursor: "c&d" })).toBe("/stores/101/orders?status=new&cursor=c%26d");
  });
});

describe("storesHref and storeIdOfPath: the one way into and out of a store URL", () => {
  it("builds the store list's URL, commas in a value kept as written", () => {
    expect(storesHref()).toBe("/stores");
    expect(storesHref({ installed: "101,102" })).toBe("/stores?installed=101,102");
    expect(storesHref({ installed: "" })).toBe("/stores");
  });

  it("reads back the store of every URL storeHref builds, and of nothing else", () => {
    for (const section of SECTIONS) {
      expect(storeIdOfPath(storeHref(101, section.slug)), section.slug).toBe(101);
      expect(storeIdOfPath(storeHref(2147483647, section.slug, { cursor: "x/y" })), section.slug).toBe(2147483647);
    }
    expect(storeIdOfPath(storeHref(101, ["orders", 42]))).toBe(101);
    expect(storeIdOfPath("/stores/101?x=1")).toBe(101);
    expect(storeIdOfPath("/stores/101#top")).toBe(101);
    for (const path of ["/stores", "/stores/", "/stores?installed=101", "/install", "/", "/storesx/101", "/storez/101", "/orders/101", "/stores/0101", "/stores/abc/orders", "/stores/2147483648", "/stores/-1", null, undefined]) {
      expect(storeIdOfPath(path), String(path)).toBeNull();
    }
  });
});

describe("the section registry", () => {
  it("gives each section its own slug and URL segment, and one home", () => {
    expect(new Set(SECTIONS.map((section) => section.slug)).size).toBe(SECTIONS.length);
    expect(new Set(SECTIONS.map((section) => section.segment)).size).toBe(SECTIONS.length);
    expect(SECTIONS.filter((section) => section.segment === "")).toHaveLength(1);
    expect(sectionOf("orders").segment).toBe("orders");
  });

  it("requests every scope a section needs, each once", () => {
    expect(new Set(PAGE_SCOPES)).toEqual(new Set(SECTIONS.flatMap((section) => section.scopes)));
    expect(PAGE_SCOPES).toHaveLength(new Set(PAGE_SCOPES).size);
  });

  it("sends the store switcher to a section any store can show", () => {
    expect(sectionOf(SWITCHER_SECTION).needsConnection).toBe(false);
  });

  it("links the store card to every section when connected, and only to those that need no connection otherwise", () => {
    const t = translator("en");
    for (const state of INSTALL_STATES) {
      const html = renderToStaticMarkup(
        createElement(StoreCard, { install: { storeId: 101, storeName: "Amina Couture", state, scopes: ["orders:read"] }, t }),
      );
      for (const section of SECTIONS) {
        const linked = html.includes(`href="${storeHref(101, section.slug)}"`);
        expect(linked, `${state}: ${section.slug}`).toBe(mayCallPlatform(state) || !section.needsConnection);
      }
      expect(html.includes('href="/install"'), `${state}: Reinstall`).toBe(!mayCallPlatform(state));
    }
  });
});
