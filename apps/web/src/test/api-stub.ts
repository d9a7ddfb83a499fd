import { vi } from 'vitest';

type Answer = { status?: number; body?: unknown };
/** Answers one call, or undefined to let the next route try. `url.pathname`, `url.searchParams`. */
type Route = (request: Request, url: URL) => Answer | undefined | Promise<Answer | undefined>;

/** A route answering with a status other than 200: `'DELETE /api/...': reply(204)`. */
export const reply =
  (status: number, body?: unknown): Route =>
  () => ({ status, body });

export type StubbedCall = { method: string; path: string; query: URLSearchParams; body: unknown };

/**
 * Stands in for the server at the network edge (fetch): `routes` is a map from 'GET /api/v2/...'
 * (exact path) to a 200 body, or to a function of the request (see `reply` for other statuses). Unlisted calls answer 404. `calls`
 * records what the console sent, bodies parsed.
 */
export function stubApi(routes: Record<string, unknown | Route>) {
  const calls: StubbedCall[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url, 'http://localhost');
    const text = request.method === 'GET' ? '' : await request.clone().text();
    calls.push({
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      body: text ? JSON.parse(text) : undefined,
    });
    const route = routes[`${request.method} ${url.pathname}`];
    const answer: Answer | undefined =
      typeof route === 'function'
        ? await (route as Route)(request, url)
        : route === undefined
          ? undefined
          : { body: route };
    const status = answer?.status ?? (answer ? 200 : 404);
    const body = answer ? answer.body : { detail: 'Not found.' };
    return new Response(status === 204 ? null : JSON.stringify(body ?? null), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return {
    calls,
    spy,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}
