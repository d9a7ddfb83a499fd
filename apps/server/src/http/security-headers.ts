import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** Headers of this server's own answers, and those it adds to the clusters' pages it proxies. */
export const ownHeaders = {
  common: {
    'x-content-type-options': 'nosniff',
    // Nothing of the console in a frame: no clickjacking (with the CSP's frame-ancestors).
    'x-frame-options': 'DENY',
    // No address leaves a page: dashboard and Jupyter links carry a pass (`?token=`), reset links a token.
    'referrer-policy': 'no-referrer',
  },
  proxied: { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' },
} as const;

/**
 * The console's Content-Security-Policy: scripts of its own origin and the built index.html's
 * inline ones by their hashes (the signed-in start script, apps/web/bundling/signed-in-start.ts),
 * nothing else inline or evaluated; styles inline too (the components set some); calls to the
 * API and its WebSockets on the same origin; never in a frame.
 */
export function consolePolicy(inlineScriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...inlineScriptHashes.map((h) => `'sha256-${h}'`)].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The SHA-256 (base64) of each inline `<script>` of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes]) => !/\bsrc\s*=/i.test(attributes ?? ''))
    .map(([, , body]) =>
      createHash('sha256')
        .update(body ?? '')
        .digest('base64'),
    );
}

/** Answers proxied from a cluster (their own policy, sandboxed: dashboards/proxy.ts), not the console's. */
const proxied = new WeakSet<ServerResponse>();
export const markProxied = (raw: ServerResponse) => void proxied.add(raw);

/**
 * Puts the headers on every answer: the console's files, /docs (which keeps its stricter policy),
 * the API's JSON, errors and 404s. The policy follows index.html as built (looked at again when
 * the file changes, at most every two seconds).
 */
export function installSecurityHeaders(app: FastifyInstance, webDist: string): void {
  const index = path.join(webDist, 'index.html');
  let policy = consolePolicy([]);
  let seen = { mtimeMs: -1, checkedAt: 0 };
  const current = () => {
    const now = Date.now();
    if (now - seen.checkedAt < 2000) return policy;
    const mtimeMs = (() => {
      try {
        return statSync(index).mtimeMs;
      } catch {
        return 0;
      }
    })();
    if (mtimeMs !== seen.mtimeMs) {
      let html = '';
      try {
        html = readFileSync(index, 'utf8');
      } catch {
        // No console built: no inline script to allow.
      }
      policy = consolePolicy(inlineScriptHashes(html));
    }
    seen = { mtimeMs, checkedAt: now };
    return policy;
  };
  app.addHook('onSend', (_request, reply, _payload, done) => {
    if (proxied.has(reply.raw)) return done();
    reply.headers(ownHeaders.common);
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', current());
    done();
  });
}
