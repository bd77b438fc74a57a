import { expect, test, type Locator, type Page } from "@playwright/test";
import { installThroughConsent } from "./support/install";
import { emulatorControl } from "./support/servers";
import { keepScreenshot } from "./support/review";

/**
 * The categories page against the emulator: the tree, every write (create, rename, status, move, reorder by drag,
 * by keyboard and by buttons, delete), each refusal of the spec shown where it happened, the double submit, and a
 * platform outage or rate limit degrading to a message with a retry.
 */

const STORE = 101;
const PAGE = `/stores/${STORE}/categories`;
const FIXTURE_TOP_LEVEL = ["Robes", "Abayas", "Hijabs", "Accessoires", "Chaussures", "Nouveautés", "Soldes"];

type Fault = { kind: "status"; status: number; retryAfter?: number; method?: string; pathPrefix?: string; times?: number };

async function queueFaults(faults: Fault[]): Promise<void> {
  await emulatorControl("POST", "/_emulator/faults", { faults });
}

async function emulatorCategoryCount(): Promise<number> {
  const state = await emulatorControl<{ stores: { id: number; categories: number }[] }>("GET", "/_emulator/state");
  return state.stores.find((store) => store.id === STORE)?.categories ?? -1;
}

/** The row (article) of one category, found by its exact name. */
function row(page: Page, name: string): Locator {
  return page.getByRole("heading", { level: 3, name, exact: true }).locator("xpath=ancestor::article[1]");
}

function topLevelNames(page: Page): Promise<string[]> {
  return page
    .getByRole("list", { name: "Top-level categories" })
    .locator(":scope > li > article > div:first-child h3")
    .allInnerTexts();
}

function childNames(page: Page, parent: string): Promise<string[]> {
  return page
    .getByRole("list", { name: `Subcategories of ${parent}` })
    .locator(":scope > li > article > div:first-child h3")
    .allInnerTexts();
}

function createForm(page: Page): Locator {
  return page.locator("form").filter({ has: page.getByRole("heading", { name: "New category" }) });
}

async function create(page: Page, name: string, parent?: string): Promise<Locator> {
  const form = createForm(page);
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Parent").selectOption(parent ? { label: parent } : { value: "0" });
  await form.getByRole("button", { name: "Create category" }).click();
  return form;
}

/** Opens a category's edit form; the locator follows the category by id, so it survives a rename. */
async function openEdit(page: Page, name: string): Promise<Locator> {
  const id = await row(page, name).getAttribute("data-category-id");
  const target = page.locator(`article[data-category-id="${id}"]`);
  const toggle = target.getByRole("button", { name: `Edit “${name}”` });
  // A save closes the panel; one left open by a refusal is not toggled shut.
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  return target.locator("form").first();
}

test.beforeEach(async ({ page }) => {
  await emulatorControl("POST", "/_emulator/reset");
  await installThroughConsent(page, { storeIds: [STORE] });
});

test.afterEach(async () => {
  await emulatorControl("DELETE", "/_emulator/faults");
});

test("shows the two-level tree from the platform with product counts and status", async ({ page }) => {
  await page.goto(PAGE);
  await expect(page.getByRole("heading", { level: 1, name: /Categories/ })).toBeVisible();
  await expect.poll(() => topLevelNames(page)).toEqual(FIXTURE_TOP_LEVEL);
  await expect.poll(() => childNames(page, "Robes")).toEqual(["Robes de soirée", "Robes d'été"]);
  const evening = row(page, "Robes de soirée");
  await expect(evening).toContainText("8 products");
  await expect(evening).toContainText("Active");
  await keepScreenshot(page, "categories-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row(page, "Robes")).toBeVisible();
  await keepScreenshot(page, "categories-phone");
});

test("creates, renames, changes status, moves and deletes categories", async ({ page }) => {
  await page.goto(PAGE);

  const form = await create(page, "Caftans");
  await expect(form.getByRole("status")).toHaveText("Created “Caftans”.");
  await expect(form.getByLabel("Name")).toHaveValue("");
  expect((await topLevelNames(page)).at(-1)).toBe("Caftans");

  await create(page, "Caftans brodés", "Caftans");
  await expect(page.getByRole("list", { name: "Subcategories of Caftans" })).toBeVisible();
  await expect.poll(() => childNames(page, "Caftans")).toEqual(["Caftans brodés"]);

  // Rename, with text that reads right to left.
  let edit = await openEdit(page, "Caftans brodés");
  await edit.getByLabel("Name").fill("قفاطين مطرزة");
  await edit.getByRole("button", { name: "Save changes" }).click();
  // One toast for the page names the change; the form closes and its row's Edit button keeps the focus.
  await expect(page.locator("[data-toast]")).toHaveText("Renamed “Caftans brodés” to “قفاطين مطرزة”.");
  await expect(row(page, "قفاطين مطرزة").getByRole("button", { name: "Edit “قفاطين مطرزة”" })).toBeFocused();
  await expect(page.getByRole("heading", { level: 3, name: "قفاطين مطرزة" })).toHaveAttribute("dir", "auto");

  // Status.
  edit = await openEdit(page, "Soldes");
  await edit.getByLabel("Status").selectOption("inactive");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("[data-toast]")).toHaveText("Saved “Soldes”.");
  await expect(row(page, "Soldes").locator("div").first()).toContainText("Inactive");

  // Move a subcategory under another top-level category.
  edit = await openEdit(page, "قفاطين مطرزة");
  await edit.getByLabel("Parent").selectOption({ label: "Abayas" });
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect.poll(() => childNames(page, "Abayas")).toContain("قفاطين مطرزة");
  await expect(page.locator("[data-toast]")).toHaveText("Moved “قفاطين مطرزة” under \u2068Abayas\u2069.");
  await expect(page.getByRole("list", { name: "Subcategories of Caftans" })).toHaveCount(0);

  // Delete the subcategory, then its former parent, now empty.
  for (const name of ["قفاطين مطرزة", "Caftans"]) {
    const target = row(page, name);
    await target.getByRole("button", { name: `Delete “${name}”` }).click();
    await target.getByRole("button", { name: "Delete category" }).click();
    await expect(row(page, name)).toHaveCount(0);
  }

  await page.reload();
  await expect.poll(() => topLevelNames(page)).toEqual(FIXTURE_TOP_LEVEL);
  await expect(row(page, "Soldes").locator("div").first()).toContainText("Inactive");
});

test("reorders with the move buttons, with the keyboard and by dragging, and the order is saved", async ({ page }) => {
  // The editor's code arrives after the load event: in the server's HTML its move buttons say they are unavailable,
  // and in the browser they become available once it has hydrated.
  const html = await (await page.request.get(PAGE)).text();
  const moveButtons = html.match(/<button [^>]*data-move="[^>]*>/g) ?? [];
  expect(moveButtons.length).toBeGreaterThanOrEqual(2 * FIXTURE_TOP_LEVEL.length);
  for (const button of moveButtons) expect(button).toContain('aria-disabled="true"');
  await page.goto(PAGE);
  await expect(page.getByRole("button", { name: "Move “Abayas” up" })).toBeEnabled();

  // Buttons: Abayas up, above Robes.
  await page.getByRole("button", { name: "Move “Abayas” up" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Moved “Abayas” to position 1 of 7." })).toBeVisible();
  // The focus stays on the moved row's control, so the next key press acts on the same category.
  await expect(page.getByRole("button", { name: "Move “Abayas” down" })).toBeFocused();
  await expect.poll(() => topLevelNames(page)).toEqual(["Abayas", "Robes", ...FIXTURE_TOP_LEVEL.slice(2)]);

  // Keyboard drag on a subcategory list: lift with Space, one place down, drop with Space.
  const handle = page.getByRole("button", { name: "Drag to reorder “Robes de soirée”" });
  await handle.focus();
  // Each key waits for the drag state it starts, as a person pressing keys would.
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("ArrowDown");
  // The move is taken once the drag layer says where the row is (its live region), not after a fixed 300 ms: a
  // slower machine only announces it later.
  await expect(page.getByText("“Robes de soirée” is over position 2 of 2.")).toBeAttached();
  await page.keyboard.press("Space");
  await expect.poll(() => childNames(page, "Robes")).toEqual(["Robes d'été", "Robes de soirée"]);
  await expect(
    page.getByRole("list", { name: "Subcategories of Robes" }).locator("xpath=..").getByRole("status").filter({ hasText: "Moved “Robes de soirée” to position 2 of 2." }),
  ).toBeVisible();
  // The drag is announced with the categories' names.
  await expect(page.getByText("“Robes de soirée” was dropped")).toBeAttached();

  // Pointer drag: Soldes from the bottom to the top (a tall window keeps both ends of the drag on screen).
  await page.setViewportSize({ width: 1280, height: 1400 });
  const source = await page.getByRole("button", { name: "Drag to reorder “Soldes”" }).boundingBox();
  const target = await page.getByRole("button", { name: "Drag to reorder “Abayas”" }).boundingBox();
  if (!source || !target) throw new Error("drag handles not laid out");
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2, source.y - 20, { steps: 5 });
  await page.mouse.move(target.x + target.width / 2, target.y - 10, { steps: 20 });
  await page.mouse.up();
  await expect.poll(() => topLevelNames(page)).toEqual(["Soldes", "Abayas", "Robes", ...FIXTURE_TOP_LEVEL.slice(2, 6)]);
  // The list moves at once; the save is done when the outcome is announced. A reload before it would read the old order.
  await expect(page.getByRole("status").filter({ hasText: "Moved “Soldes” to position 1 of 7." })).toBeVisible();

  await page.reload();
  await expect.poll(() => topLevelNames(page)).toEqual(["Soldes", "Abayas", "Robes", ...FIXTURE_TOP_LEVEL.slice(2, 6)]);
  await expect.poll(() => childNames(page, "Robes")).toEqual(["Robes d'été", "Robes de soirée"]);
});

test("shows each refusal of the platform where it happened", async ({ page, context }) => {
  // A rate limit near the end of a clock minute makes the app hold its calls until the next one.
  test.setTimeout(150_000);
  await page.goto(PAGE);
  const form = createForm(page);

  // Our own check: a blank name never reaches the platform.
  await form.getByLabel("Name").fill("   ");
  await form.getByRole("button", { name: "Create category" }).click();
  await expect(form.getByText("Enter a name.")).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Name")).toBeFocused();

  // The name's length is checked in the form: the input stops at the platform's limit, which its hint states, and
  // a longer value set by a script (no user edit, so the browser lets it through) is refused by the server's check
  // before the platform, with the typed value kept.
  const nameInput = form.getByLabel("Name");
  await expect(nameInput).toHaveAttribute("maxlength", "100");
  await expect(form.getByText("Up to 100 characters.")).toBeVisible();
  const longName = "N".repeat(101);
  await nameInput.evaluate((input, value) => ((input as HTMLInputElement).value = value), longName);
  await form.getByRole("button", { name: "Create category" }).click();
  await expect(form.locator("[data-field-error]")).toContainText("Keep the name to 100 characters or fewer.");
  await expect(nameInput).toHaveValue(longName);

  // A category with subcategories cannot go under another one (the platform's invalid_parent): the form no longer
  // offers it, and says why, instead of letting the merchant meet the refusal.
  let edit = await openEdit(page, "Robes");
  await expect(edit.getByLabel("Parent")).toBeDisabled();
  await expect(edit.getByText("It has subcategories, so it stays at the top level")).toBeVisible();

  // category_not_empty: Abayas holds products, so Delete is unavailable up front and a tap on it says why, instead
  // of letting the merchant meet the platform's refusal.
  const abayas = row(page, "Abayas");
  const deleteAbayas = abayas.getByRole("button", { name: "Delete “Abayas”" });
  await expect(deleteAbayas).toHaveAttribute("aria-disabled", "true");
  await expect(deleteAbayas).toHaveAccessibleDescription("It holds products or subcategories: move or delete them first, then delete it.");
  // A tap still reaches an aria-disabled button (Playwright waits for enabled ones unless forced).
  await deleteAbayas.click({ force: true });
  await expect(abayas.getByText("It holds products or subcategories")).toBeVisible();
  await expect(abayas.getByRole("button", { name: "Delete category" })).toHaveCount(0);
  await keepScreenshot(page, "categories-refusals");

  // 404: someone else deletes Soldes while its edit form is open here.
  edit = await openEdit(page, "Soldes");
  const other = await context.newPage();
  await other.goto(PAGE);
  await row(other, "Soldes").getByRole("button", { name: "Delete “Soldes”" }).click();
  await row(other, "Soldes").getByRole("button", { name: "Delete category" }).click();
  await expect(row(other, "Soldes")).toHaveCount(0);
  await other.close();
  await edit.getByLabel("Name").fill("Soldes d'été");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByRole("alert")).toContainText("no longer exists");
  await edit.getByRole("button", { name: "Reload the list" }).click();
  await expect(row(page, "Soldes")).toHaveCount(0);

  // 429 with the wait; sending the same form again once the wait is over creates the category once.
  await queueFaults([{ kind: "status", status: 429, retryAfter: 5, method: "POST", pathPrefix: "/v1/categories" }]);
  await create(page, "Tissus");
  await expect(form.getByRole("alert")).toContainText("Wait 5 seconds");
  await expect(form.getByLabel("Name")).toHaveValue("Tissus");
  await expect(async () => {
    await form.getByRole("button", { name: "Create category" }).click();
    await expect(form.getByRole("status")).toHaveText("Created “Tissus”.", { timeout: 2_000 });
  }).toPass({ timeout: 70_000, intervals: [5_000] });
  await expect(row(page, "Tissus")).toHaveCount(1);
});

test("every control on the page is at least 44 × 44 px on a phone (390 and 320 px), the create form included", async ({ page, context }) => {
  await page.goto(PAGE);
  // The editor's controls once it has hydrated, with an edit form and a delete question open as well.
  await expect(page.getByRole("button", { name: "Move “Abayas” up" })).toBeEnabled();
  await openEdit(page, "Robes de soirée");
  await row(page, "Soldes").getByRole("button", { name: "Delete “Soldes”" }).click();
  await expect(row(page, "Soldes").getByRole("button", { name: "Delete category" })).toBeVisible();
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    const boxes = await page.locator("main").evaluate((main) =>
      [...main.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex='-1'])")]
        .filter((element) => element.checkVisibility())
        .map((element) => {
          const box = element.getBoundingClientRect();
          const name = element.getAttribute("aria-label") ?? (element.textContent?.trim() || element.id || element.tagName);
          return { name, width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10 };
        }),
    );
    // The create form's three fields and its button are among them.
    expect(boxes.length).toBeGreaterThan(4 * FIXTURE_TOP_LEVEL.length);
    const small = boxes.filter((box) => box.width < 44 || box.height < 44);
    expect(small, `controls under 44 × 44 px at ${width} px`).toEqual([]);
  }
  await keepScreenshot(page, "categories-phone-320-controls");

  // The same page in Arabic at 320 px, to look at (right to left, nothing wider than the screen).
  await context.addCookies([{ name: "NEXT_LOCALE", value: "ar", url: page.url() }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await keepScreenshot(page, "categories-ar-320");
});

test("an open edit form survives the list's refreshes: same element, typed text and focus kept", async ({ page, context }) => {
  // Two tabs and three saves on a loaded machine.
  test.setTimeout(150_000);
  await page.goto(PAGE);
  await expect(page.getByRole("button", { name: "Move “Abayas” up" })).toBeEnabled();
  const edit = await openEdit(page, "Soldes");
  const name = edit.getByLabel("Name");
  await name.fill("Soldes d'hiver");
  await expect(name).toBeFocused();
  // A mark on the element itself: a re-created input would not carry it.
  await name.evaluate((input) => Object.assign(input, { keptAcrossRefreshes: true }));
  const save = edit.getByRole("button", { name: "Save changes" });
  await save.evaluate((button) => Object.assign(button, { keptAcrossRefreshes: true }));

  // Another tab renames a category above it and deletes Soldes itself.
  const other = await context.newPage();
  await other.goto(PAGE);
  const rename = await openEdit(other, "Robes");
  await rename.getByLabel("Name").fill("Robes longues");
  await rename.getByRole("button", { name: "Save changes" }).click();
  await expect(row(other, "Robes longues")).toHaveCount(1);
  await row(other, "Soldes").getByRole("button", { name: "Delete “Soldes”" }).click();
  await row(other, "Soldes").getByRole("button", { name: "Delete category" }).click();
  await expect(row(other, "Soldes")).toHaveCount(0);
  await other.close();

  // Back on the first tab the list is read again: the rename made in the other tab shows that it was.
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect(row(page, "Robes longues")).toHaveCount(1);
  await expect(row(page, "Robes")).toHaveCount(0);
  // The form, its text and the focus are where the merchant left them.
  expect(await name.evaluate((input) => (input as HTMLInputElement & { keptAcrossRefreshes?: boolean }).keptAcrossRefreshes)).toBe(true);
  expect(await save.evaluate((button) => (button as HTMLButtonElement & { keptAcrossRefreshes?: boolean }).keptAcrossRefreshes)).toBe(true);
  await expect(name).toHaveValue("Soldes d'hiver");
  await expect(name).toBeFocused();

  // Saving says the category is gone; Reload closes the form and the row goes with the list.
  await save.click();
  await expect(edit.getByRole("alert")).toContainText("no longer exists");
  await edit.getByRole("button", { name: "Reload the list" }).click();
  await expect(row(page, "Soldes")).toHaveCount(0);
  await expect.poll(() => topLevelNames(page)).toEqual(["Robes longues", ...FIXTURE_TOP_LEVEL.slice(1, 6)]);
});

test("a form submitted twice creates one category", async ({ page }) => {
  await page.goto(PAGE);
  const before = await emulatorCategoryCount();
  const form = createForm(page);
  await form.getByLabel("Name").fill("Ceintures");
  // Two submissions of the same rendered form, as a double click or a resend would produce.
  await form.evaluate((element: HTMLFormElement) => {
    element.requestSubmit();
    element.requestSubmit();
  });
  await expect(form.getByRole("status")).toHaveText("Created “Ceintures”.");
  await page.reload();
  await expect(row(page, "Ceintures")).toHaveCount(1);
  expect(await emulatorCategoryCount()).toBe(before + 1);

  // A double click on the button: still one.
  await form.getByLabel("Name").fill("Foulards");
  await form.getByRole("button", { name: "Create category" }).dblclick();
  await expect(form.getByRole("status")).toHaveText("Created “Foulards”.");
  await page.reload();
  await expect(row(page, "Foulards")).toHaveCount(1);
  expect(await emulatorCategoryCount()).toBe(before + 2);
});

test("a platform outage or rate limit while loading shows a message and a retry, never a stack trace", async ({ page }) => {
  await queueFaults([{ kind: "status", status: 503, method: "GET", pathPrefix: "/v1/categories", times: 2 }]);
  await page.goto(PAGE);
  const panel = page.getByRole("alert", { name: "The categories could not be loaded" });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText("not answering");
  await expect(page.locator("body")).not.toContainText(/\bat \S+:\d+|PlatformError|Error:/);
  await keepScreenshot(page, "categories-outage");
  await panel.getByRole("link", { name: "Try again" }).click();
  await expect(row(page, "Robes")).toBeVisible();

  await queueFaults([{ kind: "status", status: 429, retryAfter: 5, method: "GET", pathPrefix: "/v1/categories" }]);
  await page.goto(PAGE);
  await expect(page.getByRole("alert", { name: "The categories could not be loaded" })).toContainText("Wait 5 seconds");
  await expect(page.locator("body")).not.toContainText(/\bat \S+:\d+|PlatformError|Error:/);
});
