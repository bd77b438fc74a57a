import { describe, expect, it } from "vitest";
import { PlatformError } from "@/lib/platform/errors";
import { parseCustomerPage } from "@/lib/platform/customers";

/**
 * The customers list as the platform may send it: its documentation shows no customer fields (platform spec,
 * Customers: "the customer item shape: not shown"), so an id comes as a number, a string or not at all, and the
 * page reads every one of them.
 */

function page(items: unknown[]) {
  return { items, next_cursor: null, has_more: false };
}

describe("parseCustomerPage", () => {
  it("takes a number id, a string id and a customer without one, each as text or null", () => {
    const parsed = parseCustomerPage(
      page([
        { id: 90_042, name: "Lina", phone: "0550123456", email: null },
        { id: "90043", name: "Yacine", phone: "+213 661 00 00 01" },
        { id: "cus_7Hq2", name: "Sara" },
        { id: "18446744073709551615", name: null, phone: "0770000000" },
        { name: "Sans identifiant", phone: "0551234567", loyalty: 3 },
        { id: null, phone: null },
        { id: "  ", name: "Blank id" },
      ]),
    );
    expect(parsed.items.map((customer) => customer.id)).toEqual(["90042", "90043", "cus_7Hq2", "18446744073709551615", null, null, null]);
    expect(parsed.items[4]).toEqual({ id: null, name: "Sans identifiant", phone: "0551234567", email: null, extra: { loyalty: 3 } });
    expect(parsed.items[5]).toEqual({ id: null, name: null, phone: null, email: null, extra: {} });
    expect(parsed).toMatchObject({ nextCursor: null, hasMore: false });
  });

  it("still refuses what no customer could be: an id that is an object, a phone that is a number", () => {
    expect(() => parseCustomerPage(page([{ id: { value: 1 } }]))).toThrow(PlatformError);
    expect(() => parseCustomerPage(page([{ id: 1, phone: 550123456 }]))).toThrow(/items\.0\.phone/);
    expect(() => parseCustomerPage({ customers: [] })).toThrow(PlatformError);
  });
});
