import "server-only";
import { requireStore, type StoreAccess } from "@/lib/tenancy";

/** A page's query string as Next hands it over. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The props of a page under /stores/[storeId], with any further route segments in `Extra`. */
export type StorePageProps<Extra extends Record<string, string> = Record<never, string>> = {
  params: Promise<{ storeId: string } & Extra>;
  searchParams: Promise<SearchParams>;
};

/** The tenancy guard for the store a page's URL names: 404 unless this browser's session may open it. */
export async function requireStoreOf(params: Promise<{ storeId: string }>): Promise<StoreAccess> {
  return requireStore((await params).storeId);
}
