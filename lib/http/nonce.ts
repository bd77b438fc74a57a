/**
 * The request's CSP nonce, set by proxy.ts, for an inline <script> or <style> a page adds itself (Next puts the nonce on
 * its own scripts; the stylesheet is linked, under style-src 'self'): `(await headers()).get(NONCE_HEADER)`.
 */
export const NONCE_HEADER = "x-nonce";
