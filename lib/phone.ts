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
