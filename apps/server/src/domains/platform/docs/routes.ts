import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { z } from '../../../http/zod.js';
import { DOC_PAGES, docRenderer } from './pages.js';

/**
 * The product's own documentation (the README and guides of this checkout) as HTML, so the
 * console's Docs link works on a server with no internet (CUMULUS_DOCS_URL points it elsewhere).
 */
export function registerDocsRoutes(app: App, { config }: Deps): void {
  const renderPage = docRenderer(config.docsRoot);
  const pages = new Map<string, (typeof DOC_PAGES)[number]>(DOC_PAGES.map((p) => [p.slug, p]));
  const notFound = { detail: 'Not found.', code: 'NOT_FOUND' };

  app.get(
    '/docs/:page?',
    {
      config: { auth: 'none', csrf: false },
      schema: { hide: true, params: z.object({ page: z.string().max(64).optional() }) },
    },
    async (request, reply) => {
      const page = pages.get(request.params.page ?? '');
      const html = page ? renderPage(page) : null;
      if (!html) return reply.code(404).send(notFound);
      return reply
        .header('cache-control', 'no-cache')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; base-uri 'none'; form-action 'none'",
        )
        .type('text/html; charset=utf-8')
        .send(html);
    },
  );
}
