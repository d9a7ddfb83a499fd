/**
 * Sign-in providers. `authorizeUrl` is where "Continue with ..." sends the browser; null means
 * the server has no such provider configured, and the button says so instead. The provider
 * redirects back to /auth/<id>/callback?code=..., which exchanges the code for a session.
 */
export const OAUTH_PROVIDERS = {
  google: { name: 'Google', authorizeUrl: null as string | null },
  github: { name: 'GitHub', authorizeUrl: null as string | null },
} as const;

export type OAuthProviderId = keyof typeof OAUTH_PROVIDERS;

export function isOAuthProvider(id: string | undefined): id is OAuthProviderId {
  return id !== undefined && Object.hasOwn(OAUTH_PROVIDERS, id);
}

export const notConfiguredMessage = (name: string) =>
  `Sign-in with ${name} is not configured on this server.`;
