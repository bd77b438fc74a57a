/**
 * A phone number as typed into a filter: the spaces people type in numbers ("0555 12 34 56") and the invisible
 * direction marks a number copied from right-to-left text carries are removed. A number still holding a control or
 * other invisible character (`%00`: PostgreSQL refuses NUL in text) is refused, never sent on; at most 32 characters.
 */
export function typedPhone(value: string | null | undefined): { phone: string | null; refused: boolean } {
  const typed = (value ?? "").replace(/\p{Cf}/gu, "").replace(/\s+/g, "");
  if (/\p{C}/u.test(typed)) return { phone: null, refused: true };
  return { phone: typed.slice(0, 32) || null, refused: false };
}

/** Every digit of `value`, Arabic-Indic ones (٠-٩, ۰-۹) as the digits they are; nothing else. */
function digitsOf(value: string): string {
  return value
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0))
    .replace(/[^0-9]/g, "");
}

/**
 * An Algerian number in its national form (`0` + 8 or 9 digits, the form customers give at checkout), however it
 * was spelled: spaces, dots, dashes, parentheses, `+213`, `00213`, `213`, `(0)` after the country code, or the
 * national `0`. Null when the number is not an Algerian one (the national number never starts with 0, so
 * `21305512345` is not one; nor is Los Angeles' `213-555-1234`, too short).
 */
export function algerianNational(value: string | null | undefined): string | null {
  const national = /^(?:(?:00)?2130?|0)([1-9][0-9]{7,8})$/.exec(digitsOf(value ?? ""))?.[1];
  return national ? `0${national}` : null;
}

/**
 * The key an order's phone is matched on (stored beside the number as received, orders.customer_phone_key), the
 * same for every spelling of one number: an Algerian number's national form (algerianNational), anything else its
 * digits as they are (Arabic-Indic digits read as digits, everything else dropped: `+33 6 12...` is `33612...`).
 * Null when there is no digit. The migration that filled the rows written before the key existed
 * (db/migrations/0005_*.sql) spells this rule in SQL; tests/integration/phone-key.test.ts holds the two to the same
 * answers on a table of spellings. A change here is a new migration that fills the column again.
 */
export function phoneKey(value: string | null | undefined): string | null {
  if (!value) return null;
  return algerianNational(value) ?? (digitsOf(value) || null);
}

/**
 * The tel: address of a phone number as stored (cash-on-delivery merchants call to confirm an order): an Algerian
 * number in its international form, anything else with only its digits and a leading plus kept; null when there is
 * nothing to dial.
 */
export function telHref(input: string | null | undefined): string | null {
  if (!input) return null;
  const compact = input.replace(/[^\d+]/g, "").replace(/(?!^)\+/g, "");
  if (!/\d{4,}/.test(compact)) return null;
  const national = algerianNational(input);
  return `tel:${national ? `+213${national.slice(1)}` : compact}`;
}
