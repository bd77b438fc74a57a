/**
 * The emulator's built-in developer app. The app's development defaults (lib/env.ts) are these same values,
 * so `npm run dev` works with no `.env`. They are public on purpose: never use them against the real platform.
 */
export const DEV_APP = {
  clientId: "svcapp_5ca1ab1e00000000000d",
  clientSecret: "svcas_" + "d3".repeat(24),
  webhookSecret: "svcwhsec_" + "5e".repeat(24),
  appUrl: "http://localhost:3000",
  emulatorPort: 4000,
} as const;
