import { expect, test } from "@playwright/test";
import en from "../../messages/en.json" with { type: "json" };
import { SECTIONS, storeHref } from "../../lib/sections";
import { installThroughConsent } from "./support/install";
import { emulatorControl } from "./support/servers";

/**
 * Every section of the registry (lib/sections.ts), as the merchant meets it: linked from the navigation and marked
 * current there, its page answering with its title and the store's name, linked from the store card. A section added to the registry is checked here with no line of its own; its behaviour goes in a
 * spec of its own (orders.spec.ts, categories.spec.ts, overview.spec.ts).
 */

const STORE = 101;
const STORE_NAME = "Amina Couture";

/** The English text of a catalogue key ("Shell.orders" -> "Orders"). */
function english(key: string): string {
  const text = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en);
  if (typeof text !== "string") throw new Error(`no message ${key}`);
  return text;
}

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

test("each section opens from the navigation, with its title, the store's name and the current link marked", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [STORE] });
  const card = page.locator(`[data-store-id="${STORE}"]`);
  for (const section of SECTIONS) {
    await expect(card.getByRole("link", { name: `${english(section.label)} of ${STORE_NAME}` })).toHaveAttribute("href", storeHref(STORE, section.slug));
  }

  for (const section of SECTIONS) {
    const response = await page.goto(storeHref(STORE, section.slug));
    expect(response?.status(), section.slug).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(english(section.title));
    await expect(page.getByRole("heading", { level: 1 })).toContainText(STORE_NAME);
    await expect(page).toHaveTitle(new RegExp(english(section.title)));
    const nav = page.getByRole("navigation", { name: english("Shell.sections") });
    await expect(nav.getByRole("link")).toHaveCount(SECTIONS.length);
    await expect(nav.getByRole("link", { name: english(section.label), exact: true })).toHaveAttribute("aria-current", "page");
  }
});
