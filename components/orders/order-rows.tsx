"use client";

import { LinkWithStatus } from "@/components/link-with-status";

/**
 * One order as the list shows it, every field already in the merchant's words (the server formats dates, amounts
 * and dashes): id, order number, date, customer, phone, wilaya, total, status. A tuple, not an object, because a
 * page sends 50 of them in its payload and a key name per field would be most of each row's bytes.
 */
export type OrderRowCells = [id: number, orderNumber: string, date: string, customer: string, phone: string, wilaya: string, total: string, status: string];

/**
 * The orders list's rows. A client component so a row travels as its eight fields, not as the elements they make:
 * the RSC payload (sent with the page, and again on every live refresh) carries a server component's rows as
 * markup, seven elements and their props a row, where these send only what the merchant reads. The HTML is the same.
 *
 * `href` is the list's own address with a trailing slash (an order's page is it plus the id); `statusLabels` names
 * each status on the page once. The look, and the store data's direction, are the `orders-table` rule of
 * app/globals.css.
 */
export function OrderRows({ href, rows, statusLabels }: { href: string; rows: OrderRowCells[]; statusLabels: ReadonlyMap<string, string> }) {
  return rows.map(([id, orderNumber, date, customer, phone, wilaya, total, status]) => (
    <tr key={id}>
      <th scope="row">
        <LinkWithStatus href={href + id}>
          {orderNumber}
        </LinkWithStatus>
      </th>
      <td>{date}</td>
      <td>{customer}</td>
      <td>{phone}</td>
      <td>{wilaya}</td>
      <td>{total}</td>
      <td>
        <span data-badge={status}>{statusLabels.get(status)}</span>
      </td>
    </tr>
  ));
}
