/** A production configuration that passes every offline check of the doctor. Values are made up for tests. */
export function goodEnv(): Record<string, string | undefined> {
  return {
    NODE_ENV: "production",
    APP_URL: "https://orders.amina-couture.com",
    SVC_AUTH_URL: "https://auth.svc-platform.com",
    SVC_API_URL: "https://api.svc-platform.com",
    SVC_CLIENT_ID: "svcapp_0123456789abcdef0123",
    SVC_CLIENT_SECRET: "svcas_" + "0123456789abcdef".repeat(3),
    SVC_WEBHOOK_SECRET: "svcwhsec_" + "ab".repeat(24),
    SESSION_SECRET: "a-session-secret-that-is-long-enough-1234",
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 201).toString("base64"),
  };
}
