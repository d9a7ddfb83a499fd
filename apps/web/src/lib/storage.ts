// Everything the console keeps in the browser's storage.
export const STORAGE_KEYS = {
  /** The session key or API token the console calls with. */
  token: 'cumulus.token',
  /** The workspace picked in the workspace switcher (its slug). */
  selectedAccount: 'cumulus.selected-account',
  /** The scope list pages show (features/scopes): the picked scope, as JSON. */
  scope: 'cumulus.scope',
  /** Where to go after a sign-in that leaves the page (OAuth, SSO). */
  returnTo: 'cumulus.return-to',
  /** Set by the billing-redirect screen for a signed-out visitor; sends them to billing once. */
  upgrade: 'cumulus.upgrade',
  /** Display time zone of the Profile page: 'browser' or 'UTC'. */
  timeZone: 'cumulus.time-zone',
} as const;

type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

// Storage can be unavailable (private modes, blocked cookies); the console then forgets on reload.
export function readStored(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: see above.
  }
}

export function readCookie(name: string, cookie: string = document.cookie): string | null {
  const entry = cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return entry === undefined ? null : decodeURIComponent(entry.slice(name.length + 1));
}
