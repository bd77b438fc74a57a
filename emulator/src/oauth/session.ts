import type { EmuRequest, EmulatorContext } from "../http/types";
import type { Merchant } from "../model";

export const MERCHANT_COOKIE = "emu_merchant";

export function signedInMerchant(request: EmuRequest, ctx: EmulatorContext): Merchant | null {
  const value = request.cookies[MERCHANT_COOKIE];
  if (!value || !/^[0-9]+$/.test(value)) return null;
  return ctx.state.merchants.find((merchant) => merchant.id === Number(value)) ?? null;
}

export function merchantCookie(merchantId: number): string {
  return `${MERCHANT_COOKIE}=${merchantId}; Path=/; HttpOnly; SameSite=Lax`;
}

export function clearedMerchantCookie(): string {
  return `${MERCHANT_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/** Only same-origin paths, so /login cannot be used to bounce a browser elsewhere. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return next;
}

export function parseForm(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString("utf8"));
}
