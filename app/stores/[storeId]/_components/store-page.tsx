import "server-only";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { orDatabaseUnavailable } from "@/components/database-unavailable";
import { ErrorPanel } from "@/components/error-panel";
import { LockedSection } from "@/components/scope-gap";
import { getUi, type Ui } from "@/i18n/server";
import { isSectionLocked } from "@/lib/installs/scopes";
import { mayCallPlatform } from "@/lib/installs/state";
import { log } from "@/lib/log";
import { isPlatformError } from "@/lib/platform";
import { parseStoreId, sectionOf, storeHref, type SectionSlug } from "@/lib/sections";
import { currentSessionId } from "@/lib/session";
import { requireStore, type StoreAccess } from "@/lib/tenancy";
import { describePlatformError } from "@/lib/merchant-text/platform-error";

/**
 * The frame every store page shares, so a page holds only what is its own: the "database unavailable" answer with
 * its Try again, the tenancy guard, the heading, the read-only state of a store the app no longer reaches, the
 * locked state of a section whose scope the store's grant lacks (lib/installs/scopes.ts), and the error panel for a
 * platform refusal. `storePage(slug, render)` is a page's default export.
 */

/** A page's query string as Next hands it over. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The props of a page under /stores/[storeId], with any further route segments in `Extra`. */
export type StorePageProps<Extra extends Record<string, string> = Record<never, string>> = {
  params: Promise<{ storeId: string } & Extra>;
  searchParams: Promise<SearchParams>;
};

/** What a page's body gets: the store the guard let through, the merchant's language, its URL, its heading. */
export type StorePage<Extra extends Record<string, string> = Record<never, string>> = StoreAccess & {
  ui: Ui;
  params: { storeId: string } & Extra;
  searchParams: SearchParams;
  /** The section's h1 with the store's name, for the page to place. */
  heading: ReactNode;
};

type FrameOptions<Extra extends Record<string, string>> = {
  /**
   * Shown instead of the body when the install is not connected (the page reads the platform, which no longer
   * answers for this store). The layout's banner carries the one Reinstall.
   */
  readOnly?: string;
  /**
   * The error panel's title when the body throws a PlatformError: the frame logs it and explains it
   * (describePlatformError). Without it a PlatformError goes on to the error boundary.
   */
  loadFailed?: string;
  /** The sr-only word between the heading and the store's name ("Orders of <store>"); "Shell.of" unless given. */
  headingOf?: string;
  /** Classes of a box around whatever the page answers (the categories page keeps a screen's height: see its space.ts). */
  className?: string;
  /** The path below the section (["42"] for an order), for Try again when the request's own path is unknown. */
  below?: (params: { storeId: string } & Extra) => string[];
  /**
   * Starts the page's own database read beside the tenancy guard instead of after it: a page memoises its read per
   * request (React's cache) and calls it here and again in its body, so the two statements a page needs (the
   * session's, then its own) overlap instead of queuing. Called only for a request with a session cookie, and its
   * result reaches the page only through the body, which runs once the guard has let the store through; a store
   * the guard refuses answers 404 as before, its read discarded. Never for a platform call: those wait for the guard.
   */
  preload?: (page: { storeId: number; searchParams: SearchParams }) => void;
};

/** A section's h1: its title, then the store's name in the store's own direction. */
export function StoreHeading({ title, of, storeName }: { title: string; of: string; storeName: string }) {
  return (
    <h1 className="min-w-0 break-words text-2xl font-semibold tracking-tight">
      {title} <span className="sr-only">{of}</span>{" "}
      <span dir="auto" className="text-base font-normal text-slate-600">
        {storeName}
      </span>
    </h1>
  );
}

/** A platform refusal as the merchant reads it, with Try again only when trying again can help. */
export function PlatformErrorPanel({
  ui,
  title,
  message,
  retryHref,
  reinstall,
  requestId,
}: {
  ui: Ui;
  title: string;
  message: string;
  retryHref?: string;
  reinstall?: boolean;
  requestId?: string | null;
}) {
  const { t } = ui;
  return (
    <ErrorPanel
      title={title}
      message={message}
      retryHref={retryHref}
      reinstall={reinstall}
      labels={{ tryAgain: t("Errors.tryAgain"), reinstall: t("Errors.reinstall"), requestId: requestId ? t("Errors.requestId", { id: requestId }) : undefined }}
    />
  );
}

/** A section page's document title, from the registry: `export const generateMetadata = sectionMetadata("orders")`. */
export function sectionMetadata(slug: SectionSlug): () => Promise<Metadata> {
  return async () => {
    const { t } = await getUi();
    return { title: t(sectionOf(slug).title) };
  };
}

/** FrameOptions.preload, for a browser that may hold the store: one without a session cookie meets the 404 alone. */
async function preloadBesideGuard(
  preload: NonNullable<FrameOptions<Record<string, string>>["preload"]>,
  storeIdParam: string,
  searchParams: Promise<SearchParams>,
): Promise<void> {
  const storeId = parseStoreId(storeIdParam);
  const [sessionId, query] = await Promise.all([currentSessionId(), searchParams]);
  if (storeId !== null && sessionId !== null) preload({ storeId, searchParams: query });
}

export function storePage<Extra extends Record<string, string> = Record<never, string>>(
  slug: SectionSlug,
  render: (page: StorePage<Extra>) => Promise<ReactNode>,
  options: FrameOptions<Extra> = {},
) {
  return async function StoreSectionPage(props: StorePageProps<Extra>): Promise<ReactNode> {
    const params = await props.params;
    const retry = storeHref(params.storeId, [slug, ...(options.below?.(params) ?? [])]);
    const answer = await orDatabaseUnavailable(async () => {
      const [access, ui, searchParams] = await Promise.all([
        requireStore(params.storeId),
        getUi(),
        props.searchParams,
        options.preload ? preloadBesideGuard(options.preload, params.storeId, props.searchParams) : undefined,
      ]);
      const { t } = ui;
      const heading = <StoreHeading title={t(sectionOf(slug).title)} of={t(options.headingOf ?? "Shell.of")} storeName={access.install.storeName} />;
      if (options.readOnly && !mayCallPlatform(access.install.state)) {
        return (
          <div className="space-y-4">
            {heading}
            <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700" data-read-only>
              {t(options.readOnly)}
            </p>
          </div>
        );
      }
      // A section added after this store was installed: its scope is asked again (the layout's banner), and until
      // then the page says so instead of calling the platform for a 403.
      if (isSectionLocked(slug, access.install.scopes)) {
        return (
          <LockedSection
            slug={slug}
            storeId={access.storeId}
            storeName={access.install.storeName}
            granted={access.install.scopes}
            heading={heading}
            t={t}
            format={ui.format}
          />
        );
      }
      try {
        return await render({ ...access, ui, params, searchParams, heading });
      } catch (error) {
        if (!options.loadFailed || !isPlatformError(error)) throw error;
        log.warn(`${slug} page could not load from the platform`, { storeId: access.storeId, status: error.status, code: error.code, requestId: error.requestId });
        const described = describePlatformError(error, t);
        return (
          <div className="space-y-4">
            {heading}
            <PlatformErrorPanel
              ui={ui}
              title={t(options.loadFailed)}
              message={described.message}
              // Trying again helps only when the platform said so (a limit, an outage); a refusal stays a refusal.
              retryHref={described.retryable ? storeHref(access.storeId, slug) : undefined}
              reinstall={described.reinstall}
              requestId={error.requestId}
            />
          </div>
        );
      }
    }, { retry });
    return options.className ? <div className={options.className}>{answer}</div> : answer;
  };
}
