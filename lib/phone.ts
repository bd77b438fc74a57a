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

/**
 * The spellings of one Algerian phone number, so a search finds a customer however the number was typed, by the
 * merchant or by the customer at checkout: 0550 12 34 56, +213 550 12 34 56, 00213 550 12 34 56 and
 * 213550123456 are the same line. Anything that is not an Algerian number is matched as typed (without spaces).
 */
export function phoneVariants(input: string): string[] {
  const compact = input.replace(/[\s().-]/g, "");
  const national = /^(?:\+|00)?213(\d{8,9})$/.exec(compact)?.[1] ?? /^0(\d{8,9})$/.exec(compact)?.[1];
  if (!national) return [compact];
  return [`0${national}`, `+213${national}`, `00213${national}`, `213${national}`];
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
  const variants = phoneVariants(compact);
  return `tel:${variants.length > 1 ? variants[1] : compact}`;
}
