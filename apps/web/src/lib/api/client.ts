import { createApiClient, type paths } from '@cumulus/api';

import { type Camelize, camelize } from '@/lib/api/camelize';
import { takeEarlyCall } from '@/lib/api/early-calls';
import { ApiError } from '@/lib/api/errors';
import { session } from '@/lib/api/session';
import { readCookie } from '@/lib/storage';

/** A call with no answer by then fails as 'A network call timed out'. */
export const REQUEST_TIMEOUT_MS = 60_000;
const CSRF_COOKIE = 'csrftoken';

/** Settles as `pending` does, or fails as a fetch would once `signal` aborts (or times out). */
function untilAborted(pending: Promise<Response>, signal: AbortSignal): Promise<Response> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    pending.then(resolve, reject);
  });
}

/**
 * openapi-fetch hands a Request; it gets a deadline besides its own abort signal. One index.html
 * already asked for (early-calls.ts) is answered from there.
 */
const fetchWithTimeout: typeof fetch = (input, init) => {
  const request = new Request(input, init);
  const signal = AbortSignal.any([request.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
  const early = takeEarlyCall(request);
  if (early) return untilAborted(early, signal);
  return fetch(new Request(request, { signal }));
};

/** The one client of the console: the session token, and the CSRF cookie echoed as X-CSRFToken. */
export const api = createApiClient({
  // Same origin as the console; absolute, so requests also build outside a browser (tests).
  baseUrl: window.location.origin,
  getToken: session.token,
  getCsrfToken: () => readCookie(CSRF_COOKIE),
  fetch: fetchWithTimeout,
});

type Answer = { data?: unknown; error?: unknown; response: Response };

/**
 * Awaits a call of `api`, answering its data camelCased, or throwing an ApiError of the section
 * 8 kind (with the server's body). `call(api.GET('/api/v2/user/me'))`.
 */
export async function call<A extends Answer>(pending: Promise<A>): Promise<Camelize<NonNullable<A['data']>>> {
  let answer: A;
  try {
    answer = await pending;
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw ApiError.fromFailure(cause);
  }
  if (!answer.response.ok) throw ApiError.fromResponse(answer.response.status, answer.error);
  return camelize(answer.data) as Camelize<NonNullable<A['data']>>;
}

// Types of the API, derived from the generated schema (no hand-written twins).
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type JsonOf<R> = R extends { content: { 'application/json': infer Json } } ? Json : never;
type SuccessOf<Op> = Op extends { responses: infer R }
  ? R extends { 200: infer Ok }
    ? JsonOf<Ok>
    : R extends { 201: infer Created }
      ? JsonOf<Created>
      : never
  : never;

/** The success answer of a call, camelCased: `ApiData<'/api/v2/user/me', 'get'>`. */
export type ApiData<P extends keyof paths, M extends Method & keyof paths[P]> = Camelize<
  SuccessOf<paths[P][M]>
>;

/** The JSON request body of a call, as the wire spells it. */
export type ApiBody<P extends keyof paths, M extends Method & keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? NonNullable<Body>
  : never;
