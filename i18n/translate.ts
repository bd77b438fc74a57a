import type { ReactNode } from "react";

/** A translator over the whole catalogue (its shape lives in lib/language.ts, where lib/ takes one as a parameter). */
export type { Translate } from "@/lib/language";

/** next-intl's `t.rich`: a whole sentence with tags ("<link>dashboard</link>") that the caller renders. */
export type Rich = (key: string, tags: Record<string, (chunks: ReactNode) => ReactNode>) => ReactNode;

/** Replaces `{name}` placeholders: all the formatting client components do (see clientMessages). */
export function fill(template: string, values?: Record<string, string | number>): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}
