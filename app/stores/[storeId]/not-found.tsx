import { LinkWithStatus } from "@/components/link-with-status";
import { NotFoundPanel } from "@/components/not-found-panel";
import { getUi } from "@/i18n/server";
import { storesHref } from "@/lib/sections";

/** A category or page that is not in this store (or never existed): the same answer, so ids cannot be probed. */
export default async function NotFound() {
  const { t } = await getUi();
  return (
    <NotFoundPanel
      kind="store-page"
      title={t("NotFound.storeTitle")}
      body={t("NotFound.storeBody")}
      back={<LinkWithStatus href={storesHref()}>{t("NotFound.backToStores")}</LinkWithStatus>}
    />
  );
}
