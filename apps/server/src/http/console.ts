import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { App } from './app-types.js';

/**
 * A file Vite named by its content (`assets/index-4-Srjexl.js`, and its precompressed `.br`/`.gz`):
 * its bytes never change under that name, so browsers keep it a year without asking again.
 */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.\w+(\.br|\.gz)?$/;

/** How long a browser may keep a file of the built console: hashed files forever, others revalidated. */
export const consoleCacheControl = (file: string) =>
  HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';

/**
 * The built console on the same origin, with the single-page fallback; API paths stay JSON.
 * Text files are sent as the build precompressed them (`.br` or `.gz` beside each, chosen by
 * Accept-Encoding; see apps/web/bundling/precompress.ts), else as they are. `no-cache` files
 * (index.html) are revalidated with their ETag.
 */
export async function serveConsole(app: App, webDist: string): Promise<void> {
  const hasConsole = existsSync(path.join(webDist, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Our Cache-Control, not send's `public, max-age=0` (which would replace it).
      cacheControl: false,
      setHeaders: (res, file) => {
        res.setHeader('cache-control', consoleCacheControl(file));
        // Caches between us and the browser keep one copy per encoding.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi =
      request.url.startsWith('/api/') || request.url === '/api' || request.url.startsWith('/users/');
    if (!isApi && hasConsole && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({ detail: 'Not found.', code: 'NOT_FOUND' });
  });
}
