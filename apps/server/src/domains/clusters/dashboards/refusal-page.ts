import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../../../http/errors.js';
import type { Served } from '../served-address.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A person following a link (a page load), not a page's own script or a program asking for JSON. */
export const isNavigation = (request: FastifyRequest) => {
  const mode = request.headers['sec-fetch-mode'];
  return (
    request.method === 'GET' &&
    (mode === 'navigate' || (mode === undefined && (request.headers.accept ?? '').includes('text/html')))
  );
};

/**
 * What a person who opened a dashboard or Jupyter link sees when the proxy refuses it (a pass
 * expired or not theirs, a notebook another member's, nothing served now): the reason, in the
 * console's dark look, and links back to where a fresh link is had. Programs still get JSON.
 */
export function sendRefusalPage(
  reply: FastifyReply,
  error: ApiError,
  where: { consoleUrl: string; clusterId: number; served: Served },
) {
  const detail = typeof error.body.detail === 'string' ? error.body.detail : 'This page cannot be shown.';
  const title = where.served === 'jupyter' ? 'Jupyter cannot be opened' : 'The dashboard cannot be opened';
  const base = where.consoleUrl.replace(/\/$/, '');
  const back =
    where.served === 'jupyter'
      ? { href: `${base}/notebooks`, label: 'Back to Notebooks' }
      : { href: `${base}/clusters/${where.clusterId}`, label: 'Back to the cluster' };
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Cumulus</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#09090b;color:#fafafa;font:15px/1.5 system-ui,sans-serif}
main{max-width:32rem;margin:1.5rem;padding:1.5rem;border:1px solid #27272a;border-radius:.75rem;background:#111113}
h1{font-size:1.15rem;margin:0 0 .5rem}p{color:#a1a1aa;margin:0 0 1.25rem}
a{display:inline-block;margin:0 .5rem .5rem 0;padding:.45rem .9rem;border-radius:.4rem;text-decoration:none;font-weight:500}
a.primary{background:#38bdf8;color:#09090b}a.secondary{border:1px solid #3f3f46;color:#fafafa}
</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>
<a class="primary" href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a><a class="secondary" href="${escapeHtml(`${base}/clusters`)}">All clusters</a>
</main></body></html>
`;
  return reply
    .code(error.statusCode)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}
