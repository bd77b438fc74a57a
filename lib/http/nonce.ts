/** The request's CSP nonce, set by proxy.ts, for the <style> a page writes itself (the root layout's stylesheet). */
export const NONCE_HEADER = "x-nonce";
