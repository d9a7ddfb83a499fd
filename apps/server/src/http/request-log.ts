import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { LogFormat } from '../lib/log.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers below warn are not logged: health checks (static files are quiet anyway). */
    quietLog?: boolean;
  }
}

/** Where only instances and build machines call (the agent's own API). */
const MACHINE_PREFIX = '/api/v2/cluster_facing/';

/** Path parameters that carry credentials; such paths are logged as their route pattern. */
const SECRET_PARAM = /:\w*(session|token|key|secret|sig|code|uid)/i;

/**
 * One line per answered request instead of Fastify's two: info (error for 5xx or a broken
 * response), with the method, the path without its query string (which may carry signatures),
 * the status and the time. Health checks and the console's files only show from warn up; the
 * calls clusters and builds make (heartbeats, logs, metrics: most of all requests) at debug.
 */
export class RequestLog extends LogController {
  constructor(private readonly format: LogFormat) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    const level = error || status >= 500 ? 'error' : fromMachine(request) ? 'debug' : 'info';
    if (level === 'info' && isQuiet(request)) return;
    const { method } = request;
    const path = loggedPath(request);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const fields = this.format === 'json' ? { method, path, status, ms } : { ms };
    request.log[level](
      error ? { ...fields, err: error } : fields,
      this.format === 'json' ? 'request' : `${method} ${path} ${status}`,
    );
  }

  /**
   * A streamed answer cut short after its headers went out. Fastify's own record of it holds the
   * whole reply (a circular object); this one says what a reader needs. A client that went away
   * is no server fault (info); a source that failed is (warn).
   */
  override streamError(error: Error, request: FastifyRequest): void {
    const path = loggedPath(request);
    if ((error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE')
      request.log.info({ path }, 'the connection closed while the answer was being sent');
    else request.log.warn({ path, err: error }, 'the answer was cut short: its source failed');
  }
}

/** A call a cluster's or a build's agent makes, rather than a person or their client. */
function fromMachine(request: FastifyRequest): boolean {
  const kind = request.principal?.kind;
  if (kind === 'cluster' || kind === 'build') return true;
  const auth = request.routeOptions.config?.auth;
  return (
    auth === 'cluster' || auth === 'software' || (request.routeOptions.url ?? '').startsWith(MACHINE_PREFIX)
  );
}

function isQuiet(request: FastifyRequest): boolean {
  const route = request.routeOptions;
  if (route.config?.quietLog) return true;
  // Not an API route: the console's files and its single-page fallback.
  const url = route.url ?? request.url;
  return !(url.startsWith('/api') || url.startsWith('/users/'));
}

function loggedPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern && SECRET_PARAM.test(pattern)) return pattern;
  const q = request.url.indexOf('?');
  return q < 0 ? request.url : request.url.slice(0, q);
}
