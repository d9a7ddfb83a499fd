import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { clusters, instances } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { ApiError, notFound } from '../../../http/errors.js';
import { onUpgrade } from '../../../http/upgrade.js';
import { isLive } from '../states.js';
import { dashboardPrefix, PASS_SECONDS, passCookie, redeemPass } from './passes.js';

const PATH = /^\/dashboard\/(\d+)(\/[^?#]*)?(?:\?(.*))?$/;
/** Not passed on, either way: they describe one connection, or are the caller's own credentials here. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'cookie',
  'authorization',
]);

export const refused = () =>
  new ApiError(403, {
    detail:
      'This dashboard link has expired or is not yours: open the dashboard again from the cluster page.',
    code: 'DASHBOARD_PASS_INVALID',
  });

export function forwardedHeaders(
  headers: IncomingHttpHeaders,
  keep: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || (HOP_BY_HOP.has(name) && !keep.includes(name))) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The path upstream sees: the same, without the pass. */
export function upstreamPath(url: string): string {
  const parsed = new URL(url, 'http://proxy');
  parsed.searchParams.delete('token');
  return parsed.pathname + parsed.search;
}

/**
 * Where the proxy reaches a scheduler's dashboard. The scheduler reports the address it listens on,
 * its private one; a cloud VM with a public address is reached there instead, as Dask clients reach
 * it (`give_scheduler_public_ip`): the control plane need not run inside the cluster's network, only
 * within the security group's allowed CIDR.
 */
export function dashboardUpstream(
  reported: string,
  scheduler?: { privateIp: string | null; publicIp: string | null },
): URL {
  const url = new URL(reported);
  if (scheduler?.publicIp && url.hostname === scheduler.privateIp) url.hostname = scheduler.publicIp;
  return url;
}

const SERVED = {
  dashboard: { column: clusters.dashboardAddress, none: 'This cluster serves no dashboard now.' },
  jupyter: { column: clusters.jupyterAddress, none: 'This cluster serves no Jupyter now.' },
} as const;

/**
 * Where a proxied request for a cluster's dashboard or Jupyter goes, once the reader's pass is
 * checked: the address its scheduler reported, on that scheduler's machine. One query per request:
 * the cluster and its live scheduler's addresses together.
 */
export async function passedUpstream(
  app: App,
  deps: Deps,
  clusterId: number,
  pass: string | undefined,
  served: keyof typeof SERVED,
): Promise<URL> {
  const { db, config } = deps;
  if (!(await redeemPass(app, db, config.secret, clusterId, pass))) throw refused();
  const [cluster] = await db
    .select({
      address: SERVED[served].column,
      state: clusters.state,
      desiredState: clusters.desiredState,
      privateIp: instances.privateIpAddress,
      publicIp: instances.publicIpAddress,
    })
    .from(clusters)
    .leftJoin(
      instances,
      and(
        eq(instances.clusterId, clusters.id),
        eq(instances.role, 'scheduler'),
        isNull(instances.releasedAt),
      ),
    )
    .where(eq(clusters.id, clusterId))
    .orderBy(desc(instances.id))
    .limit(1);
  if (!cluster?.address || !isLive(cluster)) throw notFound(SERVED[served].none);
  return dashboardUpstream(cluster.address, cluster);
}

/**
 * The Dask dashboard through Cumulus: `/dashboard/{cluster}/…` (HTTP and WebSocket) is passed to
 * the cluster's scheduler, which serves its dashboard under that same prefix, so no scheduler port
 * needs to be open to users. The link's pass (`?token=`, from the cluster details) is checked on
 * every request and kept in a cookie scoped to the path, so the dashboard's own requests carry it.
 */
export function registerDashboardProxy(app: App, deps: Deps): void {
  const { config } = deps;
  const secure = config.publicUrl.startsWith('https://');

  const upstreamOf = (clusterId: number, pass: string | undefined) =>
    passedUpstream(app, deps, clusterId, pass, 'dashboard');

  app.route({
    method: ['GET', 'HEAD'],
    url: '/dashboard/:cluster/*',
    config: { auth: 'none', csrf: false },
    schema: { hide: true },
    handler: async (request, reply) => {
      const clusterId = Number((request.params as { cluster: string }).cluster);
      const fromLink = (request.query as { token?: string }).token;
      const pass = fromLink ?? request.cookies[passCookie(clusterId)];
      const upstream = await upstreamOf(clusterId, pass);
      if (fromLink)
        reply.setCookie(passCookie(clusterId), fromLink, {
          path: `${dashboardPrefix(clusterId)}/`,
          httpOnly: true,
          sameSite: 'lax',
          secure,
          maxAge: PASS_SECONDS,
        });
      const answer = await new Promise<IncomingMessage>((resolve, reject) => {
        const outgoing = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: request.method,
            path: upstreamPath(request.url),
            headers: { ...forwardedHeaders(request.headers), host: upstream.host },
            timeout: 30_000,
          },
          resolve,
        );
        outgoing.once('timeout', () => outgoing.destroy(new Error('The scheduler did not answer in time.')));
        outgoing.once('error', reject);
        // A client gone before the scheduler answered needs no answer: nothing is left waiting.
        const gone = () => outgoing.destroy(new Error('The client went away.'));
        reply.raw.once('close', gone);
        outgoing.once('response', () => reply.raw.off('close', gone));
        outgoing.end();
      }).catch((err: Error) => {
        throw new ApiError(502, { detail: `The scheduler's dashboard cannot be reached: ${err.message}` });
      });
      return reply
        .code(answer.statusCode ?? 502)
        .headers(forwardedHeaders(answer.headers))
        .send(answer);
    },
  });

  installUpgrade(app, upstreamOf);
}

/** WebSockets (the dashboard's live plots): checked like any request, then joined byte for byte. */
function installUpgrade(
  app: FastifyInstance,
  upstreamOf: (clusterId: number, pass: string | undefined) => Promise<URL>,
): void {
  onUpgrade(
    app,
    (path) => path.startsWith('/dashboard/'),
    (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const match = PATH.exec(req.url ?? '');
      const deny = (status: number, text: string) => {
        socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      };
      if (!match) return deny(404, 'Not Found');
      const clusterId = Number(match[1]);
      const fromLink = new URLSearchParams(match[3] ?? '').get('token') ?? undefined;
      const cookies = app.parseCookie(req.headers.cookie ?? '');
      upstreamOf(clusterId, fromLink ?? cookies[passCookie(clusterId)]).then(
        (upstream) => {
          // The client may have gone while the pass was checked: then there is nothing to join.
          if (socket.destroyed) return;
          let joined = false;
          const tunnel = connect(Number(upstream.port || 80), upstream.hostname, () => {
            const headers = {
              ...forwardedHeaders(req.headers, ['upgrade', 'connection']),
              host: upstream.host,
            };
            const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
            tunnel.write(`${req.method} ${upstreamPath(req.url!)} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
            if (head.length > 0) tunnel.write(head);
            joined = true;
            socket.pipe(tunnel).pipe(socket);
          });
          const close = () => {
            tunnel.destroy();
            socket.destroy();
          };
          // Once joined, the scheduler's bytes are the answer: a failure then only closes both ends.
          tunnel.on('error', () => (joined ? close() : deny(502, 'Bad Gateway')));
          tunnel.once('close', close);
          socket.once('error', close);
          socket.once('close', close);
        },
        (err: unknown) =>
          err instanceof ApiError && err.statusCode === 404 ? deny(404, 'Not Found') : deny(403, 'Forbidden'),
      );
    },
  );
}
