/**
 * Scopes in the merchant's words. The platform documents the scope names, not their descriptions, so each
 * known scope has a catalogue entry; one the platform adds later reads "Other permission (name)".
 */
const SCOPE_KEYS: Record<string, string> = {
  "analytics:read": "Scope.analyticsRead",
  "products:read": "Scope.productsRead",
  "products:write": "Scope.productsWrite",
  "customers:read": "Scope.customersRead",
  "orders:read": "Scope.ordersRead",
  "orders:write": "Scope.ordersWrite",
  "whatsapp:read": "Scope.whatsappRead",
  "whatsapp:send": "Scope.whatsappSend",
};

export function scopeLabel(scope: string, t: (key: string, values?: Record<string, string>) => string): string {
  const key = SCOPE_KEYS[scope];
  return key ? t(key) : t("Scope.other", { scope });
}
