import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { z } from '../../../http/zod.js';
import { notFoundHtml, pageHtml, searchHtml } from './layout.js';
import { DOC_PAGES, type DocPage, pageBySlug } from './manifest.js';
import { type Rendered, render } from './markdown.js';
import { SEARCH_PATH, searchSections, sectionsOf } from './search.js';

/**
 * The product's own documentation (docs/*.md and the guides beside the code, as manifest.ts lists
 * them) as HTML, so the console's Docs link works on a server with no internet
 * (CUMULUS_DOCS_URL points it elsewhere). Any other address under /docs is a 404 page.
 */
export function registerDocsRoutes(app: App, { config }: Deps): void {
  const rendered = docRenderer(config.docsRoot);
  // A page's sections, cut once per rendering of it (docRenderer renders a changed file anew).
  const sectionsByRendering = new WeakMap<Rendered, ReturnType<typeof sectionsOf>>();
  const headers = {
    'cache-control': 'no-cache',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    'content-type': 'text/html; charset=utf-8',
  };
  const schema = { hide: true };

  // Every page's title, headings and text, read as the pages are (a changed file is searched anew).
  app.get(
    SEARCH_PATH,
    {
      config: { auth: 'none', csrf: false },
      schema: { ...schema, querystring: z.object({ q: z.string().optional() }) },
    },
    async (request, reply) => {
      const query = (request.query.q ?? '').slice(0, 200);
      const sections = DOC_PAGES.flatMap((page) => {
        const found = rendered(page);
        if (!found) return [];
        const cut = sectionsByRendering.get(found) ?? sectionsOf(page, found);
        sectionsByRendering.set(found, cut);
        return cut;
      });
      return reply.headers(headers).send(searchHtml(query, searchSections(sections, query)));
    },
  );

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
