/**
 * Sign-in providers. The server lists those it has configured (GET /api/v2/deployment,
 * `sign_in_providers`, each with the `authorize_url` "Continue with ..." sends the browser to);
 * the login page offers a button for those only. A provider redirects back to
 * /auth/<id>/callback?code=..., which exchanges the code for a session.
 */
export const OAUTH_PROVIDERS = {
  google: { name: 'Google' },
  github: { name: 'GitHub' },
} as const;

export type OAuthProviderId = keyof typeof OAUTH_PROVIDERS;

export function isOAuthProvider(id: string | undefined): id is OAuthProviderId {
  return id !== undefined && Object.hasOwn(OAUTH_PROVIDERS, id);
}

export const notConfiguredMessage = (name: string) =>
  `Sign-in with ${name} is not configured on this server.`;
