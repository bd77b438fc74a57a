import Link from "next/link";
import { connection } from "next/server";

/**
 * The floor orders page: 50 rows of 6 columns and a link per row, built from memory on every request (no database,
 * no session, no layout beyond the root). The app's orders page is timed against this one.
 */

const ROWS = Array.from({ length: 50 }, (_, index) => {
  const id = 10_000_000 + index;
  return {
    id,
    number: `ORD-101-20260401-${id.toString(16).padStart(8, "0")}`,
    date: new Date(Date.UTC(2026, 3, 1, 10, index)),
    customer: `Client ${index}`,
    phone: `05${String(index).padStart(8, "0")}`,
    wilaya: "الجزائر",
    total: `${(1400 + index * 13).toFixed(2)} DZD`,
  };
});

const dateTime = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Algiers", dateStyle: "medium", timeStyle: "short" });

export default async function RowsPage() {
  await connection();
  return (
    <table>
      <thead>
        <tr>
          <th>Order</th>
          <th>Date</th>
          <th>Customer</th>
          <th>Phone</th>
          <th>Wilaya</th>
          <th>Total</th>
        </tr>
      </thead>
      <tbody>
        {ROWS.map((row) => (
          <tr key={row.id}>
            <th>
              <Link href={`/rows/${row.id}`}>{row.number}</Link>
            </th>
            <td>{dateTime.format(row.date)}</td>
            <td>{row.customer}</td>
            <td>{row.phone}</td>
            <td>{row.wilaya}</td>
            <td>{row.total}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
