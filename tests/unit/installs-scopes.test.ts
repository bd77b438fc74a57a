import { describe, expect, it } from "vitest";
import { INSTALL_STATES } from "@/db/schema";
import { isSectionLocked, lackingScopes, NEEDED_SCOPES, needsConsentAgain, scopeGap, SYNC_SCOPES } from "@/lib/installs/scopes";
import { mayCallPlatform } from "@/lib/installs/state";
import { SECTIONS } from "@/lib/sections";

/** The comparison of a grant with what the app needs (lib/installs/scopes.ts), on plain lists. */
describe("a grant against what the app needs", () => {
  it("needs every section's scopes and the sync's, once each", () => {
    for (const scope of [...SECTIONS.flatMap((section) => section.scopes), ...SYNC_SCOPES]) expect(NEEDED_SCOPES).toContain(scope);
    expect(new Set(NEEDED_SCOPES).size).toBe(NEEDED_SCOPES.length);
  });

  it("lists what is lacking in the needed order, and nothing for a grant with more than needed", () => {
    expect(lackingScopes(["b"], ["a", "b", "c"])).toEqual(["a", "c"]);
    expect(lackingScopes([...NEEDED_SCOPES, "orders:write", "whatsapp:read"], NEEDED_SCOPES)).toEqual([]);
  });

  it("locks a section when any of its scopes is lacking, and only that section", () => {
    const granted = NEEDED_SCOPES.filter((scope) => scope !== "products:write");
    expect(isSectionLocked("categories", granted)).toBe(true);
    expect(scopeGap(granted)).toEqual({ missing: ["products:write"], lockedSections: ["categories"], syncBlocked: false });
    for (const section of SECTIONS.filter((candidate) => candidate.slug !== "categories")) expect(isSectionLocked(section.slug, granted), section.slug).toBe(false);
  });

  it("blocks the sync without its scope, and locks the sections that read it", () => {
    const gap = scopeGap(NEEDED_SCOPES.filter((scope) => scope !== "orders:read"));
    expect(gap.syncBlocked).toBe(true);
    expect(gap.lockedSections).toEqual(["orders"]);
  });

  it("asks again only a store the app still reaches", () => {
    for (const state of INSTALL_STATES) {
      expect(needsConsentAgain({ state, scopes: [] }), state).toBe(mayCallPlatform(state));
      expect(needsConsentAgain({ state, scopes: [...NEEDED_SCOPES] }), state).toBe(false);
    }
  });
});
