/**
 * The two URLs the developer console registers for the app, derived from its origin (APP_URL). The app serves
 * them (app/oauth/callback, app/api/webhooks), the doctor and `npm run setup` print them, and the emulator
 * registers them for its built-in app: one spelling, since the redirect URI must match character for character.
 */
export function redirectUriOf(appUrl: string): string {
  return `${appUrl.replace(/\/+$/, "")}/oauth/callback`;
}

export function webhookUrlOf(appUrl: string): string {
  return `${appUrl.replace(/\/+$/, "")}/api/webhooks`;
}
