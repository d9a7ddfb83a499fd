/** `scheme://user:password@` in a URL, or `scheme://token@` (a user alone may be a token, as pip reads it). */
const CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s:@]+)(?::([^/\s@]*))?@/gi;

/**
 * Text with the credentials of the URLs in it hidden, as pip shows them: `https://user:****@host`,
 * `https://****@host`. For what goes to logs and answers (a package index URL with a token).
 */
export function withoutCredentials(text: string): string {
  // Every string the log writes comes here: most have no credentials to look for.
  if (!text.includes('@')) return text;
  return text.replace(CREDENTIALS, (_all, scheme: string, user: string, password: string | undefined) =>
    password === undefined ? `${scheme}****@` : `${scheme}${user}:****@`,
  );
}
