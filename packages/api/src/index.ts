import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };

export interface ClientOptions {
  baseUrl?: string;
  /** The session key or API token to send, if any. */
  getToken?: () => string | null | undefined;
  /** The CSRF cookie's value, echoed on unsafe requests. */
  getCsrfToken?: () => string | null | undefined;
  fetch?: typeof fetch;
}

/** A typed fetch client for the Cumulus API, generated from the server's own schemas. */
export function createApiClient(options: ClientOptions = {}) {
  const client = createClient<paths>({ baseUrl: options.baseUrl ?? '', fetch: options.fetch });
  const auth: Middleware = {
    onRequest({ request }) {
      const token = options.getToken?.();
      if (token)
        request.headers.set('Authorization', `${token.includes('-') ? 'ApiToken' : 'Token'} ${token}`);
      if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
        const csrf = options.getCsrfToken?.();
        if (csrf) request.headers.set('X-CSRFToken', csrf);
      }
      return request;
    },
  };
  client.use(auth);
  return client;
}

export type ApiClient = ReturnType<typeof createApiClient>;
