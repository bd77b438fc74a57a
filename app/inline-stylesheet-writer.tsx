"use client";

import { useServerInsertedHTML } from "next/navigation";
import { useRef } from "react";
import stylesheet from "./inline-stylesheet";

/**
 * Writes the compiled stylesheet into the document's head while the server renders the HTML, under the request's
 * nonce: the first paint needs no second request. Through `useServerInsertedHTML` (the hook CSS-in-JS libraries use)
 * the text goes into the HTML only: not into the RSC payload (a second copy in every document, and one in every
 * server action's answer) and not into the browser's JavaScript (next.config.ts compiles it for the server's
 * bundles only; the browser's copy of this module is the empty string).
 */
export function InlineStylesheetWriter({ nonce }: { nonce: string | undefined }) {
  // Next calls the callback at every flush of the stream; the stylesheet belongs in the first one only.
  const written = useRef(false);
  useServerInsertedHTML(() => {
    if (written.current || !stylesheet) return null;
    written.current = true;
    return <style nonce={nonce} dangerouslySetInnerHTML={{ __html: stylesheet }} />;
  });
  return null;
}
