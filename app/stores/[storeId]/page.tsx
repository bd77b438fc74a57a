import { redirect } from "next/navigation";
import { requireStore } from "@/lib/tenancy";

/** A store's home is its orders. */
export default async function StoreHome({ params }: { params: Promise<{ storeId: string }> }) {
  const { storeId } = await params;
  const access = await requireStore(storeId);
  redirect(`/stores/${access.storeId}/orders`);
}
