// A signed-in page load asks for what the shell waits on from index.html itself, while the
// console's code is still on its way (bundling/signed-in-start.ts puts `signedInStartScript` in the
// page); the API client then takes each answer, once, instead of asking again.

/** The shell's first calls: what app/shell/prefetch.ts asks for (its test keeps the two equal). */
export const EARLY_CALLS = [
  '/api/v2/user/me',
  '/api/v2/user/me/memberships',
  '/api/v2/users/user/organization/memberships',
  '/api/v1/interaction_types/?page=1',
  '/api/v1/interactions/?page=1',
  '/api/v2/users/user/valid-scopes',
] as const;

type EarlyCall = { authorization: string; response: Promise<Response> };
const GLOBAL = '__cumulusEarlyCalls';
type WithEarlyCalls = { [GLOBAL]?: Record<string, EarlyCall> };

/**
 * The page's first script, for a browser holding a session token in `tokenKey`: preloads the
 * `modules` the signed-in shell runs (modulepreload) and starts EARLY_CALLS with the token, the
 * Authorization header spelled as packages/api's client spells it. Without a token it does nothing.
 */
export function signedInStartScript({ tokenKey, modules }: { tokenKey: string; modules: string[] }): string {
  return `try{const t=localStorage.getItem(${JSON.stringify(tokenKey)});if(t){for(const h of ${JSON.stringify(modules)}){const l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;document.head.appendChild(l)}const a=(t.includes("-")?"ApiToken ":"Token ")+t,c={};for(const p of ${JSON.stringify(EARLY_CALLS)}){const r=fetch(location.origin+p,{headers:{authorization:a}});r.catch(()=>{});c[p]={authorization:a,response:r}}window.${GLOBAL}=c}}catch{}`;
}

/**
 * The answer index.html already asked for, if `request` is the same GET with the same
 * Authorization header; each is taken once (a refetch asks the server again).
 */
export function takeEarlyCall(request: Request): Promise<Response> | undefined {
  const calls = (window as WithEarlyCalls)[GLOBAL];
  if (!calls || request.method !== 'GET') return undefined;
  const url = new URL(request.url);
  const key = `${url.pathname}${url.search}`;
  const call = calls[key];
  if (!call || url.origin !== window.location.origin) return undefined;
  if (call.authorization !== request.headers.get('authorization')) return undefined;
  delete calls[key];
  return call.response;
}
