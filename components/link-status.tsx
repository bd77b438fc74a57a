"use client";

import { useLinkStatus } from "next/link";

/**
 * Inside a next/link: while the navigation it started is in flight, a hidden marker that app/globals.css turns into
 * the bar along the top of the viewport (`body:has([data-navigating])`). Nothing is rendered otherwise, so it costs
 * no layout and no shift; a screen reader never meets it.
 */
export function LinkStatus() {
  const { pending } = useLinkStatus();
  return pending ? <span data-navigating="" hidden /> : null;
}
