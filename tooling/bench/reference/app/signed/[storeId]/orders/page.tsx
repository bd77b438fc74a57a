import { createHash } from "node:crypto";
import Link from "next/link";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import ar from "../../../../../../../messages/ar.json";
import en from "../../../../../../../messages/en.json";
import fr from "../../../../../../../messages/fr.json";
import { floorSql } from "../../../../lib/floor-db";

/**
 * The signed-in floor orders page: the least a signed-in page of a store's orders does per request, beside the bare
 * floor (../../rows, built from memory). The proxy (../../../../proxy.ts) has written a fresh CSP nonce and the
 * security headers; here the session cookie's secret is hashed and looked up by key with the store it must hold
 * (one statement), then one page of the store's orders is read through the store's key with the same filters and
 * keyset cursor as the app (one statement), and 50 rows are rendered with next/link. Each row shows what the app's
 * row shows, in the language the NEXT_LOCALE cookie names as the app reads it (French without one): the app's own
 * words for the headings and statuses, the date and the amount through Intl, and an Arabic page laid out right to
 * left. No i18n library, no shell, no ORM. The app's orders page is timed against this one.
 */

type SearchParams = Record<string, string | string[] | undefined>;

type Row = {
  id: string;
  order_number: string;
  customer_name: string | null;
  customer_phone: string | null;
  wilaya_name: string | null;
  total: string | null;
  status: string;
  created_at: Date;
  micros: string;
};

/** The app's catalogues (messages/*.json) and Intl tags (i18n/locales.ts), read plainly: one lookup per word. */
const LOCALES = {
  ar: { messages: ar, tag: "ar-DZ-u-nu-latn", dir: "rtl" },
  fr: { messages: fr, tag: "fr-DZ", dir: "ltr" },
  en: { messages: en, tag: "en", dir: "ltr" },
} as const;
type Locale = keyof typeof LOCALES;

/** Per locale, made once as the app's i18n/format.ts makes them: the row's date and its amount in dinars. */
const FORMATS = Object.fromEntries(
  Object.entries(LOCALES).map(([locale, { tag }]) => [
    locale,
    {
      dateTime: new Intl.DateTimeFormat(tag, { timeZone: "Africa/Algiers", year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
      money: new Intl.NumberFormat(tag, { style: "currency", currency: "DZD", minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    },
  ]),
) as Record<Locale, { dateTime: Intl.DateTimeFormat; money: Intl.NumberFormat }>;

const localeOf = (value: string | undefined): Locale => (value === "ar" || value === "en" ? value : "fr");

const one = (value: string | string[] | undefined) => (typeof value === "string" && value !== "" ? value : null);

/** The app's cursor (db/queries/order-views.ts): base64url JSON of [created_at in microseconds, id]. */
function decodeCursor(value: string | null): { micros: string; id: number } | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || typeof parsed[0] !== "string" || typeof parsed[1] !== "number") return null;
    return { micros: parsed[0], id: parsed[1] };
  } catch {
    return null;
  }
}

export default async function SignedOrdersPage({
  params,
  searchParams,
}: {
  params: Promise<{ storeId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ storeId: storeParam }, query, jar] = await Promise.all([params, searchParams, cookies()]);
  const storeId = Number(storeParam);
  const locale = localeOf(jar.get("NEXT_LOCALE")?.value);
  const { messages, dir } = LOCALES[locale];
  const { dateTime, money } = FORMATS[locale];
  const words = messages.Orders;
  const secret = jar.get("app_session")?.value;
  if (!Number.isSafeInteger(storeId) || !secret) notFound();
  const sql = floorSql();
  const sessionId = createHash("sha256").update(secret).digest("hex");
  const [session] = await sql`
    select s.last_seen_at from sessions s
    join session_stores ss on ss.session_id = s.id and ss.store_id = ${storeId}
    where s.id = ${sessionId}`;
  if (!session) notFound();

  const status = one(query.status);
  const phone = one(query.phone);
  const cursor = decodeCursor(one(query.cursor));
  // The phone as typed, on the key's index as the app's page reads it (the bench types a national number, which is
  // its own key): without the index the floor would scan the store, and the comparison would flatter the app.
  const rows = await sql<Row[]>`
    select id, order_number, customer_name, customer_phone, wilaya_name, total::text as total, status, created_at,
           ((extract(epoch from created_at) * 1000000)::bigint)::text as micros
    from orders
    where store_id = ${storeId}
      ${status ? sql`and status = ${status}` : sql``}
      ${phone ? sql`and customer_phone_key = ${phone}` : sql``}
      ${cursor ? sql`and (created_at, id) < (timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond', ${cursor.id}::bigint)` : sql``}
    order by created_at desc nulls last, id desc nulls last
    limit 51`;
  const page = rows.slice(0, 50);
  const last = page.at(-1);
  const next = rows.length > 50 && last ? Buffer.from(JSON.stringify([last.micros, Number(last.id)])).toString("base64url") : null;

  return (
    <main lang={locale} dir={dir}>
      <h1>{words.title}</h1>
      <table>
        <thead>
          <tr>
            <th>{words.order}</th>
            <th>{words.date}</th>
            <th>{words.customer}</th>
            <th>{words.phoneColumn}</th>
            <th>{words.wilaya}</th>
            <th>{words.total}</th>
            <th>{words.statusColumn}</th>
          </tr>
        </thead>
        <tbody>
          {page.map((row) => (
            <tr key={row.id}>
              <th>
                <Link href={`/signed/${storeId}/orders/${row.id}`} prefetch={false}>
                  {row.order_number}
                </Link>
              </th>
              <td>{dateTime.format(row.created_at)}</td>
              <td>{row.customer_name}</td>
              <td>{row.customer_phone}</td>
              <td>{row.wilaya_name}</td>
              <td>{money.format(Number(row.total))}</td>
              <td>{(messages.Status as Record<string, string>)[row.status] ?? messages.Status.unknown}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next ? <Link href={`/signed/${storeId}/orders?cursor=${next}`}>{words.older}</Link> : null}
    </main>
  );
}
