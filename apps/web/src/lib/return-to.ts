import { paths, REDIRECT_URI_PARAM, RETURN_TO_PARAM } from '@/lib/paths';
import { readStored, STORAGE_KEYS, writeStored } from '@/lib/storage';

/** Only paths of this console: no scheme, no other host (`//evil`), so return-to cannot redirect away. */
export function safeReturnTo(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/** The return-to carried in a query string (return-to, else redirect_uri). */
export function returnToParam(search: URLSearchParams): string | null {
  return safeReturnTo(search.get(RETURN_TO_PARAM)) ?? safeReturnTo(search.get(REDIRECT_URI_PARAM));
}

/**
 * Login for a visitor on a protected path: return-to holds the path plus query. Root is not
 * worth returning to, so its query (open=true, return-to) travels to login as it is.
 */
export function loginPathFor(location: { pathname: string; search: string }): string {
  if (location.pathname === paths.root) return `${paths.login}${location.search}`;
  const query = new URLSearchParams({ [RETURN_TO_PARAM]: `${location.pathname}${location.search}` });
  return `${paths.login}?${query}`;
}

/** Kept across a sign-in that leaves the console (OAuth, SSO). */
export function storeReturnTo(value: string | null): void {
  writeStored(STORAGE_KEYS.returnTo, safeReturnTo(value));
}

/** After signing in: the stored return-to (then cleared), else the query's, else root. */
export function takeReturnTo(search: URLSearchParams): string {
  const stored = safeReturnTo(readStored(STORAGE_KEYS.returnTo));
  writeStored(STORAGE_KEYS.returnTo, null);
  return stored ?? returnToParam(search) ?? paths.root;
}
