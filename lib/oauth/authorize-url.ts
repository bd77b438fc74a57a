export type AuthorizeUrlInput = {
  /** The platform's {auth_url}, without a trailing slash. */
  authUrl: string;
  clientId: string;
  redirectUri: string;
  /** Absent or empty: the platform grants every scope registered on the app, so `scope` is left out. */
  scopes?: readonly string[];
  state: string;
  codeChallenge: string;
};

/**
 * The authorize URL with exactly the spec's parameters. Values are percent-encoded (spaces as %20, never "+"),
 * so the scope list and the redirect URI reach the platform character for character.
 */
export function buildAuthorizeUrl(input: AuthorizeUrlInput): string {
  const params: [string, string][] = [
    ["response_type", "code"],
    ["client_id", input.clientId],
    ["redirect_uri", input.redirectUri],
  ];
  if (input.scopes && input.scopes.length > 0) params.push(["scope", input.scopes.join(" ")]);
  params.push(["state", input.state], ["code_challenge", input.codeChallenge], ["code_challenge_method", "S256"]);
  const query = params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&");
  return `${input.authUrl.replace(/\/+$/, "")}/oauth/apps/authorize?${query}`;
}
