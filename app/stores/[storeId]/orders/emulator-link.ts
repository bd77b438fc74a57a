/**
 * Where to send a merchant who has no orders yet. Against the emulator (development, or a test deployment whose
 * platform is on a loopback address) that is its dashboard, where a test order can be placed; against the real
 * platform there is nothing to link to.
 */
export function emulatorDashboardUrl(nodeEnv: string, authUrl: string): string | null {
  let host = "";
  try {
    host = new URL(authUrl).hostname;
  } catch {
    return null;
  }
  const loopback = host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host.endsWith(".localhost");
  return nodeEnv === "development" || loopback ? `${authUrl.replace(/\/+$/, "")}/dashboard` : null;
}
