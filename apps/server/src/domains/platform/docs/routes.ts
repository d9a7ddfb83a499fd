import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { z } from '../../../http/zod.js';
import { notFoundHtml, pageHtml } from './layout.js';
import { type DocPage, pageBySlug } from './manifest.js';
import { type Rendered, render } from './markdown.js';

/**
 * The product's own documentation (docs/*.md and the guides beside the code, as manifest.ts lists
 * them) as HTML, so the console's Docs link works on a server with no internet
 * (CUMULUS_DOCS_URL points it elsewhere). Any other address under /docs is a 404 page.
 */
export function registerDocsRoutes(app: App, { config }: Deps): void {
  const rendered = docRenderer(config.docsRoot);
  const headers = {
    'cache-control': 'no-cache',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    'content-type': 'text/html; charset=utf-8',
  };
  const schema = { hide: true };

  app.get(
    '/docs/:page?',
    {
      config: { auth: 'none', csrf: false },
      schema: { ...schema, params: z.object({ page: z.string().max(200).optional() }) },
    },
    async (request, reply) => {
      const page = pageBySlug.get(request.params.page ?? '');
      const found = page ? rendered(page) : null;
      if (!page || !found) return reply.code(404).headers(headers).send(notFoundHtml(request.url));
      return reply.headers(headers).send(pageHtml(page, found));
    },
  );
  // Deeper addresses (a page's name with a slash after it, or more) name no page either.
  app.get('/docs/*', { config: { auth: 'none', csrf: false }, schema }, async (request, reply) =>
    reply.code(404).headers(headers).send(notFoundHtml(request.url)),
  );
}

/** Renders each page once per version of its file (a checkout that changes shows the change). */
export function docRenderer(root: string) {
  const cache = new Map<string, { mtimeMs: number; rendered: Rendered }>();
  return (page: DocPage): Rendered | null => {
    const file = path.join(root, page.file);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return null;
    }
    let entry = cache.get(file);
    if (!entry || entry.mtimeMs !== mtimeMs) {
      entry = { mtimeMs, rendered: render(readFileSync(file, 'utf8'), page) };
      cache.set(file, entry);
    }
    return entry.rendered;
  };
}
