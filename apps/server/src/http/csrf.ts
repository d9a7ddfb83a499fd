import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/crypto.js';
import { ApiError } from './errors.js';

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit CSRF protection. Every response (but those to API and cluster tokens, and of routes
 * with `csrf: false`) plants a readable `csrftoken` cookie; an unsafe request that comes from a browser must echo it in the
 * `X-CSRFToken` header. Browsers always
 * mark their requests (Origin on unsafe methods, Sec-Fetch-* on all), scripts and the Python
 * client do not, so token-carrying API clients keep working without a cookie dance.
 */
export function installCsrf(app: FastifyInstance, options: { secure: boolean }): void {
  // A plain (not async) hook: every request passes here, and a promise per request is measurable.
  app.addHook('onRequest', (request, reply, done) => {
    // Calls browsers never make (cluster agents, load balancers' health checks) need neither part.
    if (request.routeOptions.config?.csrf === false) return done();
    const cookie = request.cookies[CSRF_COOKIE];
    if (!cookie && !carriesClientToken(request)) {
      // 122 random bits from Node's batched UUID entropy: no system call per response.
      reply.setCookie(CSRF_COOKIE, randomUUID().replaceAll('-', ''), {
        path: '/',
        sameSite: 'lax',
        secure: options.secure,
        httpOnly: false,
        maxAge: 31_449_600,
      });
    }
    if (SAFE_METHODS.has(request.method) || !isFromBrowser(request)) return done();
    const header = request.headers[CSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !safeEqual(cookie, header)) {
      return done(
        new ApiError(403, {
          detail: 'CSRF Failed: CSRF token missing or incorrect.',
          code: 'CSRF_FAILED',
        }),
      );
    }
    done();
  });
}

/** API tokens and cluster tokens are for programs, which never echo a CSRF cookie: plant none for them. */
function carriesClientToken(request: FastifyRequest): boolean {
  const auth = request.headers.authorization;
  return auth !== undefined && /^(ApiToken|Bearer) /i.test(auth);
}

function isFromBrowser(request: FastifyRequest): boolean {
  return request.headers.origin !== undefined || request.headers['sec-fetch-site'] !== undefined;
}
