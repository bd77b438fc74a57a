import type { SectionNames } from "./section-names";

/**
 * What `npm run new:section` writes, file by file. Each template is the smallest working example of the project's
 * pattern for that file (the store frame, defineResource, the emulator's paginate, the harness, the browser specs),
 * so the section works and passes the suite the moment it is written, and the developer edits from there.
 */

export type SectionPlan = SectionNames & {
  scopes: readonly string[];
  /** Reads the platform: scopes given, or a resource. */
  needsConnection: boolean;
  /** With --resource: the platform resource, its emulator route and its test are written too. */
  resource: boolean;
};

/** The page reads its items a page at a time from the platform (resource) or shows its empty state. */
const PAGE_SIZE = 20;
/** How many items the emulator's route gives every store, so the browser spec and the test can count them. */
export const EMULATOR_SAMPLES = 3;

/** The registry entry, inserted at the end of SECTIONS in lib/sections.ts. */
export function registryEntry(plan: SectionPlan): string {
  const scopes = `[${plan.scopes.map((scope) => JSON.stringify(scope)).join(", ")}]`;
  return (
    `  {\n    slug: "${plan.name}",\n    segment: "${plan.name}",\n    label: "Shell.${plan.key}",\n    title: "${plan.group}.title",\n` +
    `    scopes: ${scopes},\n    needsConnection: ${plan.needsConnection},\n  },\n`
  );
}

/** The English messages of the section's group; French and Arabic start with the same text (messages/untranslated.json). */
export function groupMessages(plan: SectionPlan): Record<string, string> {
  const noun = plan.title.toLowerCase();
  return {
    title: plan.title,
    intro: plan.resource ? `The store's ${noun}, newest first.` : `The store's ${noun}.`,
    emptyTitle: `No ${noun} yet`,
    emptyBody: plan.resource ? `When the store has ${noun}, they are listed here.` : `This page is ready for its content.`,
    ...(plan.needsConnection
      ? {
          readOnly: `The app is not connected to this store, so its ${noun} cannot be shown.`,
          loadFailed: `The ${noun} could not be loaded`,
        }
      : {}),
    ...(plan.resource
      ? { unnamed: "Item {id}", pages: "Pages", newest: `Newest ${noun}`, older: `Older ${noun}`, end: "End of the list" }
      : {}),
  };
}

function frameOptions(plan: SectionPlan): string {
  return plan.needsConnection ? `,\n  { readOnly: "${plan.group}.readOnly", loadFailed: "${plan.group}.loadFailed" }` : "";
}

const EMPTY_STATE = (group: string) => `<section className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="text-base font-semibold">{t("${group}.emptyTitle")}</h2>
          <p className="mx-auto mt-1 max-w-prose text-sm text-slate-600">{t("${group}.emptyBody")}</p>
        </section>`;

/** app/stores/[storeId]/<name>/page.tsx */
export function pageSource(plan: SectionPlan): string {
  const { name, key, group } = plan;
  if (!plan.resource) {
    return `import { sectionMetadata, storePage } from "../_components/store-page";

export const generateMetadata = sectionMetadata("${name}");

/**
 * ${plan.title} of a store, inside the frame every store page shares (tenancy guard, database outage, heading${plan.needsConnection ? ", the read-only notice of a store the app no longer reaches, the error panel of a PlatformError" : ""}).
 * Read the platform with \`interactivePlatform(storeId).<resource>\` or the app's own database with a named query
 * from db/queries/, and build links with storeHref (docs/extending.md, "Add a store section").
 */
export default storePage(
  "${name}",
  async ({ ui: { t }, heading }) => (
    <div className="space-y-4">
      <div>
        {heading}
        <p className="mt-1 text-sm text-slate-600">{t("${group}.intro")}</p>
      </div>
      ${EMPTY_STATE(group).replace(/\n {8}/g, "\n      ")}
    </div>
  )${frameOptions(plan)},
);
`;
  }
  return `import { LinkWithStatus } from "@/components/link-with-status";
import { interactivePlatform } from "@/lib/platform";
import { storeHref } from "@/lib/sections";
import { sectionMetadata, storePage } from "../_components/store-page";

export const generateMetadata = sectionMetadata("${name}");

const PAGE_SIZE = ${PAGE_SIZE};

/**
 * ${plan.title} of a store from the platform (client.${key}), newest first, a page at a time by the platform's cursor.
 * The frame shows a disconnected store's read-only notice and explains a PlatformError (a refused cursor included)
 * in its error panel.
 */
export default storePage(
  "${name}",
  async ({ storeId, searchParams, ui: { t, format }, heading }) => {
    const cursor = typeof searchParams.cursor === "string" && searchParams.cursor !== "" ? searchParams.cursor : undefined;
    const page = await interactivePlatform(storeId).${key}.list({ cursor, limit: PAGE_SIZE });
    return (
      <div className="space-y-4">
        <div>
          {heading}
          <p className="mt-1 text-sm text-slate-600">{t("${group}.intro")}</p>
        </div>
        {page.items.length === 0 && !cursor ? (
          ${EMPTY_STATE(group).replace(/\n {8}/g, "\n          ")}
        ) : (
          <div className="space-y-4">
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-list="${name}">
              {page.items.map((item) => (
                <li key={item.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3">
                  <span dir="auto" className="min-w-0 break-words font-medium">
                    {item.name ?? t("${group}.unnamed", { id: item.id })}
                  </span>
                  {item.createdAt ? <span className="text-sm text-slate-600">{format.dateTime(item.createdAt)}</span> : null}
                </li>
              ))}
            </ul>
            <nav aria-label={t("${group}.pages")} className="flex flex-wrap items-center justify-between gap-3 text-sm">
              {cursor ? (
                <LinkWithStatus href={storeHref(storeId, "${name}")} className="font-medium underline underline-offset-2">
                  {t("${group}.newest")}
                </LinkWithStatus>
              ) : (
                <span />
              )}
              {page.hasMore && page.nextCursor ? (
                <LinkWithStatus href={storeHref(storeId, "${name}", { cursor: page.nextCursor })} rel="next" className="button-secondary">
                  {t("${group}.older")}
                </LinkWithStatus>
              ) : (
                <span className="text-slate-600">{cursor ? t("${group}.end") : ""}</span>
              )}
            </nav>
          </div>
        )}
      </div>
    );
  }${frameOptions(plan)},
);
`;
}

/** tests/e2e/<name>.spec.ts */
export function e2eSource(plan: SectionPlan): string {
  const { name, group } = plan;
  const body = plan.resource
    ? `    // The emulator's route gives every store ${EMULATOR_SAMPLES} items (emulator/src/api/${name}.ts).
    await expect(page.locator('[data-list="${name}"] li')).toHaveCount(${EMULATOR_SAMPLES});`
    : `    await expect(page.getByRole("heading", { level: 2 })).toHaveText(messages.${group}.emptyTitle);`;
  return `import { expect, test } from "@playwright/test";
import ar from "../../messages/ar.json" with { type: "json" };
import fr from "../../messages/fr.json" with { type: "json" };
import { storeHref } from "../../lib/sections";
import { installThroughConsent } from "./support/install";
import { expectNoSeriousAxe } from "./support/review";
import { APP_URL, emulatorControl } from "./support/servers";

/**
 * ${plan.title} (written by npm run new:section): the page opens in Arabic and French on a phone, in the language's
 * direction, with its title, no sideways scroll and no serious axe finding. tests/e2e/sections.spec.ts checks its
 * link, title and current mark in the navigation; this spec grows with the page's own behaviour.
 */

const STORE = 101;
const LOCALES = { ar: { dir: "rtl", messages: ar }, fr: { dir: "ltr", messages: fr } } as const;

test.describe.configure({ timeout: 120_000 });

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

for (const [locale, { dir, messages }] of Object.entries(LOCALES)) {
  test(\`${name} opens in \${locale} at 390 px, with its title, no sideways scroll and axe at 0 serious\`, async ({ page, context }) => {
    await installThroughConsent(page, { storeIds: [STORE] });
    await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: APP_URL }]);
    await page.setViewportSize({ width: 390, height: 844 });
    const response = await page.goto(storeHref(STORE, "${name}"));
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.locator("html")).toHaveAttribute("dir", dir);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(messages.${group}.title);
${body}
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousAxe(page);
  });
}
`;
}

/** lib/platform/<name>.ts */
export function resourceSource(plan: SectionPlan): string {
  const { name, key, group } = plan;
  return `import "server-only";
import { z } from "zod";
import { defineResource, intLike, isoDate, listEnvelope, optionalText, paginate, parseAnswer, toPage, type Page } from "./resource";

export type ${group}Item = { id: number; name: string | null; createdAt: Date | null };

export type ${group}ListParams = { cursor?: string; limit?: number };

/**
 * The fields this app reads from GET /v1/${name} (written by npm run new:section: check them against the platform's
 * documentation). Loose, so fields the platform adds later pass through instead of failing the parse.
 */
const itemSchema = z.looseObject({ id: intLike, name: optionalText, created_at: isoDate.nullish() });

function toItem(raw: z.output<typeof itemSchema>): ${group}Item {
  return { id: raw.id, name: raw.name ?? null, createdAt: raw.created_at ?? null };
}

/** \`client.${key}\`: the store's ${plan.title.toLowerCase()}, newest first, a page at a time or all of them. */
export const ${key} = defineResource((call) => {
  const list = async (params: ${group}ListParams = {}): Promise<Page<${group}Item>> => {
    const response = await call("GET", "/v1/${name}", { query: { cursor: params.cursor, limit: params.limit } });
    return toPage(parseAnswer(listEnvelope(itemSchema), response.data, "${plan.title.toLowerCase()} list", response.requestId), toItem);
  };
  return {
    list,
    iterate: (params: Omit<${group}ListParams, "cursor"> = {}) => paginate((cursor) => list({ ...params, cursor })),
  };
});
`;
}

/** emulator/src/api/<name>.ts */
export function emulatorRouteSource(plan: SectionPlan): string {
  const { name, key } = plan;
  return `import { apiOk } from "./envelope";
import { paginate } from "./pagination";
import type { ApiCall, Operation } from "./types";

/**
 * GET /v1/${name} (written by npm run new:section): ${EMULATOR_SAMPLES} sample items a store, newest first, with the
 * platform's cursor and limit, until the emulator models the resource in its state (model.ts, fixtures.ts).
 */

const SAMPLES = ${EMULATOR_SAMPLES};
const DAY = 86_400_000;
const NEWEST = Date.UTC(2026, 0, 31);

function samples(storeId: number) {
  return Array.from({ length: SAMPLES }, (_, index) => ({
    id: storeId * 1000 + index + 1,
    name: \`${plan.title} \${index + 1}\`,
    created_at: new Date(NEWEST - (SAMPLES - 1 - index) * DAY).toISOString(),
  }));
}

function list(call: ApiCall) {
  const page = paginate(call, samples(call.store.id), (item) => ({ at: item.created_at, id: item.id }), (item) => item);
  return page.ok ? apiOk(200, page.value, call.requestId) : page.response;
}

export const ${key}Operations: Operation[] = [{ method: "GET", path: "/v1/${name}", scope: ${JSON.stringify(plan.scopes[0] ?? null)}, handler: list }];
`;
}

/** tests/integration/platform-<name>.test.ts */
export function resourceTestSource(plan: SectionPlan): string {
  const { name, key } = plan;
  const scope = plan.scopes[0];
  const refusal = scope
    ? `
  it("is refused without ${scope}, before the app reads anything", async () => {
    await h.install(OTHER_STORE, ["orders:read"]);
    await expect(h.client(OTHER_STORE).${key}.list()).rejects.toMatchObject({ status: 403 });
  });
`
    : "";
  return `import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./platform-harness";

/** client.${key} (lib/platform/${name}.ts) against the emulator's GET /v1/${name} (written by npm run new:section). */

const STORE = 101;
const OTHER_STORE = 102;

describe("client.${key} against the emulator", () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    await h.install(STORE);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it("lists the store's ${plan.title.toLowerCase()} a page at a time, newest first, each once", async () => {
    const client = h.client(STORE);
    const first = await client.${key}.list({ limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    const all = [];
    for await (const item of client.${key}.iterate({ limit: 2 })) all.push(item);
    expect(all.length).toBeGreaterThan(first.items.length);
    expect(new Set(all.map((item) => item.id)).size).toBe(all.length);
    const times = all.map((item) => item.createdAt?.getTime() ?? 0);
    expect(times).toEqual([...times].sort((left, right) => right - left));
    expect(h.sent.every((request) => request.url.pathname === "/v1/${name}")).toBe(true);
  });
${refusal}});
`;
}
