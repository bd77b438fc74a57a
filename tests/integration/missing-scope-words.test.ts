import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeCategoryRefusal } from "@/app/stores/[storeId]/categories/refusal";
import { describePlatformError } from "@/lib/merchant-text/platform-error";
import { PlatformError } from "@/lib/platform";
import { databaseKind } from "../helpers/database";
import { translator } from "../helpers/i18n";
import { startHarness, type Harness } from "./platform-harness";

const STORE = 101;

async function refusalOf(promise: Promise<unknown>): Promise<PlatformError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof PlatformError)) throw new Error(`expected a PlatformError, got ${String(outcome)}`);
  return outcome;
}

/**
 * A store installed without the scope a page needs, against the emulator's real 403: the merchant reads which
 * permission is missing, in the permission's own words, in every language, whichever page asked.
 */
describe(`a store without a page's scope sees that scope named (${databaseKind()})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.install(STORE, ["products:read"]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("the overview, without analytics:read", async () => {
    const error = await refusalOf(h.client(STORE).analytics({ range: "7d" }));
    const words = { en: "“See the store's sales figures”", fr: "«\u00a0Voir les chiffres de vente de la boutique\u00a0»", ar: "«الاطلاع على أرقام مبيعات المتجر»" };
    for (const [locale, label] of Object.entries(words) as [keyof typeof words, string][]) {
      const refusal = describePlatformError(error, translator(locale));
      expect(refusal.message, locale).toContain(label);
      expect(refusal).toMatchObject({ reinstall: true, retryable: false });
    }
  });

  it("the categories form, without products:write", async () => {
    const error = await refusalOf(h.client(STORE).categories.create({ name: "Soldes" }, { idempotencyKey: "form:scope" }));
    expect(describeCategoryRefusal(error, translator("en")).message).toContain("“Change products and categories”");
    expect(describeCategoryRefusal(error, translator("fr")).message).toContain("«\u00a0Modifier les produits et les catégories\u00a0»");
    expect(describeCategoryRefusal(error, translator("ar")).message).toContain("«تعديل المنتجات والفئات»");
  });
});
