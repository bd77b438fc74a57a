/**
 * The names one section goes by, from the one the developer types (`npm run new:section promo-codes`): the URL
 * segment and registry slug as typed, the catalogue key and the resource's name in camelCase (message keys and
 * JavaScript names take no hyphen), the catalogue group in PascalCase, and an English title to start from.
 */
export type SectionNames = {
  /** As typed: the registry slug, the URL segment, the page's folder, the spec's and the resource file's name. */
  name: string;
  /** `promoCodes`: the Shell key (`Shell.promoCodes`), `client.promoCodes`, the emulator's `promoCodesOperations`. */
  key: string;
  /** `PromoCodes`: the catalogue group (`PromoCodes.title`) and the resource's types (`PromoCodesItem`). */
  group: string;
  /** `Promo codes`: the English text until someone writes better. */
  title: string;
};

export const SECTION_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
export const MAX_NAME_LENGTH = 32;

/** Words JavaScript will not take as a variable's name: `export const delete = ...` would not parse. */
const RESERVED = new Set(
  (
    "await break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if implements import in instanceof interface let new null package private protected public return static " +
    "super switch this throw true try typeof var void while with yield"
  ).split(" "),
);

/** Why a typed name cannot be a section's, or null when it can. */
export function nameProblem(name: string): string | null {
  if (name === "") return "a section needs a name: npm run new:section -- <name> (lower-case letters, digits and hyphens, e.g. returns)";
  if (name.length > MAX_NAME_LENGTH) return `"${name}" is longer than ${MAX_NAME_LENGTH} characters`;
  if (!SECTION_NAME.test(name)) {
    return `"${name}" is not a section name: lower-case letters, digits and single hyphens, starting with a letter (e.g. returns, promo-codes)`;
  }
  if (RESERVED.has(namesOf(name).key)) return `"${name}" is a JavaScript reserved word, which cannot name the section's code`;
  return null;
}

export function namesOf(name: string): SectionNames {
  const words = name.split("-");
  const key = words.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join("");
  const group = key.charAt(0).toUpperCase() + key.slice(1);
  const title = words.join(" ").replace(/^./, (first) => first.toUpperCase());
  return { name, key, group, title };
}
