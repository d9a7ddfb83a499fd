import type { App } from '../../src/http/app-types.js';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent form-encoded instead of JSON. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | Array<string | number>>;
  remoteAddress?: string;
}

/** Each app's injected requests not answered yet. */
const inFlight = new WeakMap<App, Set<Promise<unknown>>>();

/**
 * Calls the app through Fastify's inject: every hook, schema and handler runs as over HTTP. Unlike
 * over HTTP, closing the app does not wait for injected requests still running: `settled` does.
 */
export class Api {
  /** Once every request injected into `app` so far has its answer (or failed). */
  static async settled(app: App): Promise<void> {
    await Promise.allSettled([...(inFlight.get(app) ?? [])]);
  }

  constructor(
    private readonly app: App,
    private readonly credentials?: string,
  ) {}

  /** The same client, authenticated with a session key or an API token. */
  as(credentials: string): Api {
    return new Api(this.app, credentials);
  }

  async request<T = any>(method: string, url: string, options: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.credentials && !headers.authorization) {
      headers.authorization = `${this.credentials.includes('-') ? 'ApiToken' : 'Token'} ${this.credentials}`;
    }
    let payload: string | Buffer | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload =
        typeof options.body === 'string' || Buffer.isBuffer(options.body)
          ? options.body
          : JSON.stringify(options.body);
    }
    const query = options.query
      ? Object.fromEntries(
          Object.entries(options.query).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
        )
      : undefined;
    const injected = this.app.inject({
      method: method as 'GET',
      url,
      headers,
      payload,
      query,
      remoteAddress: options.remoteAddress,
    });
    const pending = inFlight.get(this.app) ?? new Set();
    inFlight.set(this.app, pending);
    pending.add(injected);
    const res = await injected.finally(() => pending.delete(injected));
    let body: unknown = res.body;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      // Not JSON; tests that care look at `text`.
    }
    return { status: res.statusCode, body: body as T, headers: res.headers, text: res.body };
  }

  get = <T = any>(url: string, options?: RequestOptions) => this.request<T>('GET', url, options);
  post = <T = any>(url: string, body?: unknown, options?: RequestOptions) =>
    this.request<T>('POST', url, { ...options, body });
  put = <T = any>(url: string, body?: unknown, options?: RequestOptions) =>
    this.request<T>('PUT', url, { ...options, body });
  patch = <T = any>(url: string, body?: unknown, options?: RequestOptions) =>
    this.request<T>('PATCH', url, { ...options, body });
  delete = <T = any>(url: string, options?: RequestOptions) => this.request<T>('DELETE', url, options);
}
