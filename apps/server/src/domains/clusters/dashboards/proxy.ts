import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clusters, instances } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { ApiError, notFound } from '../../../http/errors.js';
import { markProxied, ownHeaders } from '../../../http/security-headers.js';
import { onUpgrade } from '../../../http/upgrade.js';
import { jupyterToken } from '../notebooks/jupyter.js';
import { type Served, whyNotServed } from '../served-address.js';
import { isLive } from '../states.js';
import {
  dashboardPrefix,
  PASS_SECONDS,
  passCookie,
  proxyCallers,
  proxyHostOf,
  redeemPass,
} from './passes.js';
import { isNavigation, sendRefusalPage } from './refusal-page.js';

/** `/dashboard/{cluster}/…` and its query; Jupyter's under `/dashboard/{cluster}/jupyter/`. */
const PATH = /^\/dashboard\/(\d{1,12})(\/[^?#]*)?(?:\?(.*))?$/;
const isJupyter = (rest: string | undefined) => /^\/jupyter(\/|$)/.test(rest ?? '');

/** Not passed on to the upstream: they describe one connection, or are the caller's own credentials here. */
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

/**
 * Not passed back to the browser: what would set state on the origin the page is served from
 * (cookies, storage clearing, HSTS, service worker scope, reporting endpoints, other protocols)
 * or let other origins read it (CORS). The upstream is code a cluster runs: it speaks for no origin.
 */
const STATEFUL = new Set([
  'set-cookie',
  'set-cookie2',
  'clear-site-data',
  'service-worker-allowed',
  'strict-transport-security',
  'alt-svc',
  'nel',
  'report-to',
  'reporting-endpoints',
  'public-key-pins',
  'public-key-pins-report-only',
  'origin-agent-cluster',
]);

/**
 * A proxied page on the console's origin runs sandboxed: its scripts get an opaque origin, so they
 * can read neither the console's storage (its session) nor its cookies, nor call the API as the
 * reader. Scripts, forms, pop-ups (which open unsandboxed), dialogs and downloads still work; what
 * needs the page's own origin (its cookies: the pass on its own requests; storage) does not, so
 * a dashboard or Jupyter works fully only from a proxy origin of its own (CUMULUS_PROXY_ORIGIN).
 */
export const SANDBOX =
  'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads';

export const refused = (served: Served = 'dashboard') =>
  new ApiError(403, {
    detail:
      served === 'jupyter'
        ? 'This Jupyter link has expired or is not yours: open the notebook again from the Notebooks page.'
        : 'This dashboard link has expired or is not yours: open the dashboard again from the cluster page.',
    code: 'DASHBOARD_PASS_INVALID',
  });

const notYours = () =>
  new ApiError(403, {
    detail: "This notebook is another member's: only the member who started it can open its Jupyter.",
    code: 'NOTEBOOK_NOT_YOURS',
  });

const otherSite = () =>
  new ApiError(403, {
    detail: 'Calls that change a cluster through its dashboard or Jupyter must come from its own pages.',
    code: 'PROXY_ORIGIN_REFUSED',
  });

/** What each served thing needs: where its address is kept, who may use it, how long it may take. */
const SERVED = {
  dashboard: {
    column: clusters.dashboardAddress,
    none: 'This cluster serves no dashboard now.',
    what: "The scheduler's dashboard",
    methods: ['GET', 'HEAD'],
    creatorOnly: false,
    timeoutMs: 30_000,
  },
  jupyter: {
    column: clusters.jupyterAddress,
    none: 'This cluster serves no Jupyter now.',
    what: 'Jupyter',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // A notebook runs code as its creator: theirs alone.
    creatorOnly: true,
    timeoutMs: 60_000,
  },
} as const;

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

/** The upstream's answer headers a browser gets: without state-setting ones, with the proxy's own. */
export function answerHeaders(
  headers: IncomingHttpHeaders,
  sandboxed: boolean,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      value === undefined ||
      HOP_BY_HOP.has(name) ||
      STATEFUL.has(name) ||
      name.startsWith('access-control-')
    )
      continue;
    out[name] = value;
  }
  Object.assign(out, ownHeaders.proxied);
  if (sandboxed) {
    const theirs = out['content-security-policy'];
    out['content-security-policy'] = [...(theirs === undefined ? [] : [theirs].flat()), SANDBOX];
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

/** One proxied request or upgrade, as the proxy reads it. */
interface Call {
  clusterId: number;
  served: Served;
  pass: string | undefined;
  method: string;
  host: string | undefined;
  origin: string | undefined;
}

/** Addresses checked where they are served lately (cluster, instance, address): a page's requests come in bursts. */
const vouched = new Map<string, number>();
const VOUCHED_MS = 10_000;

/**
 * Where a proxied request goes once every rule holds: it came to the cluster's own origin (or the
 * console's), from there if it changes anything, with a pass of a user who may still read the
 * cluster (for Jupyter: its creator), to a live cluster, and only to its scheduler instance's own
 * address and port. One query per request: the cluster and its live scheduler's instance together.
 */
async function upstreamOf(app: App, deps: Deps, call: Call): Promise<{ upstream: URL; sandboxed: boolean }> {
  const { db, config } = deps;
  const served = SERVED[call.served];
  const proxyHost = proxyHostOf(config, call.host);
  if (proxyHost !== null && proxyHost !== 'any' && proxyHost !== call.clusterId) throw notFound();
  const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(call.method);
  if (unsafe && call.origin !== undefined && !proxyCallers(config, call.clusterId).includes(call.origin))
    throw otherSite();
  const user = await redeemPass(app, db, config.secret, call.clusterId, call.pass);
  if (!user) throw refused(call.served);
  const [row] = await db
    .select({ cluster: clusters, address: served.column, instance: instances })
    .from(clusters)
    .leftJoin(
      instances,
      and(
        eq(instances.clusterId, clusters.id),
        eq(instances.role, 'scheduler'),
        isNull(instances.releasedAt),
      ),
    )
    .where(eq(clusters.id, call.clusterId))
    .orderBy(desc(instances.id))
    .limit(1);
  if (!row?.address || !isLive(row.cluster)) throw notFound(served.none);
  if (served.creatorOnly && row.cluster.creatorId !== user.id) throw notYours();
  const key = `${call.clusterId} ${row.instance?.id} ${row.address}`;
  if ((vouched.get(key) ?? 0) < Date.now()) {
    const problem = await whyNotServed(deps.backends, row.cluster, row.instance, call.served, row.address);
    if (problem)
      throw new ApiError(502, { detail: `${served.what} is not served by its scheduler: ${problem}` });
    if (vouched.size > 10_000) vouched.clear();
    vouched.set(key, Date.now() + VOUCHED_MS);
  }
  const scheduler = {
    privateIp: row.instance?.privateIpAddress ?? null,
    publicIp: row.instance?.publicIpAddress ?? null,
  };
  return { upstream: dashboardUpstream(row.address, scheduler), sandboxed: proxyHost === null };
}

/**
 * A proxy origin serves clusters' pages and nothing else: not the console, not the API. An
 * `onRequest` hook app.ts installs before credentials are looked at.
 */
export function proxyOriginGuard(config: Pick<Deps['config'], 'publicUrl' | 'proxyOrigin'>) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    if (proxyHostOf(config, request.headers.host) !== null && !PATH.test(request.url))
      return done(notFound());
    done();
  };
}

/** Headers only the control plane adds upstream: Jupyter's own token, which no reader holds. */
const credentialsFor = (deps: Deps, call: Pick<Call, 'served' | 'clusterId'>): Record<string, string> =>
  call.served === 'jupyter'
    ? { authorization: `token ${jupyterToken(deps.config.secret, call.clusterId)}` }
    : {};

/**
 * A cluster's dashboard and Jupyter through Cumulus, one proxy for both: `/dashboard/{cluster}/…`
 * (HTTP and WebSocket) goes to the scheduler's HTTP server, which serves its dashboard under that
 * same prefix, and `/dashboard/{cluster}/jupyter/…` (every method) to the notebook's Jupyter with
 * Jupyter's own token, so no scheduler port needs to be open to users. The link's pass (`?token=`,
 * from the cluster details) is checked on every request and kept in a cookie scoped to the path,
 * so the pages' own requests carry it. Pages are served from the cluster's proxy origin where one
 * is configured, else sandboxed on the console's (`SANDBOX`); upstream answers set no state there.
 */
export function registerClusterProxy(app: App, deps: Deps): void {
  const { config } = deps;
  const secure = (base: string) => base.startsWith('https://');
  const keepPass = (reply: FastifyReply, clusterId: number, pass: string, sandboxed: boolean) =>
    reply.setCookie(passCookie(clusterId), pass, {
      path: `${dashboardPrefix(clusterId)}/`,
      httpOnly: true,
      sameSite: 'lax',
      secure: secure(sandboxed ? config.publicUrl : (config.proxyOrigin ?? '')),
      maxAge: PASS_SECONDS,
    });

  // Jupyter's bodies (notebooks saved, kernels started) pass through unread.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/dashboard/:cluster/*',
      config: { auth: 'none', csrf: false },
      schema: { hide: true },
      handler: async (request, reply) => {
        const clusterId = Number((request.params as { cluster: string }).cluster);
        const served: Served = isJupyter(`/${(request.params as { '*': string })['*']}`)
          ? 'jupyter'
          : 'dashboard';
        if (!(SERVED[served].methods as readonly string[]).includes(request.method)) throw notFound();
        const fromLink = (request.query as { token?: string }).token;
        const found = await upstreamOf(app, deps, {
          clusterId,
          served,
          pass: fromLink ?? request.cookies[passCookie(clusterId)],
          method: request.method,
          host: request.headers.host,
          origin: request.headers.origin,
        }).catch((err: unknown) => {
          // A person who opened the link gets a page with a way back; programs get the JSON.
          if (!(err instanceof ApiError) || !isNavigation(request)) throw err;
          return err;
        });
        if (found instanceof ApiError)
          return sendRefusalPage(reply, found, { consoleUrl: config.publicUrl, clusterId, served });
        const { upstream, sandboxed } = found;
        if (fromLink) keepPass(reply, clusterId, fromLink, sandboxed);
        const answer = await new Promise<IncomingMessage>((resolve, reject) => {
          const outgoing = httpRequest(
            {
              host: upstream.hostname,
              port: upstream.port,
              method: request.method,
              path: upstreamPath(request.url),
              headers: {
                ...forwardedHeaders(request.headers),
                host: upstream.host,
                ...credentialsFor(deps, { served, clusterId }),
              },
              timeout: SERVED[served].timeoutMs,
            },
            resolve,
          );
          outgoing.once('timeout', () => outgoing.destroy(new Error('It did not answer in time.')));
          outgoing.once('error', reject);
          // A client gone before the upstream answered needs no answer: nothing is left waiting.
          const gone = () => outgoing.destroy(new Error('The client went away.'));
          reply.raw.once('close', gone);
          outgoing.once('response', () => reply.raw.off('close', gone));
          request.raw.pipe(outgoing);
        }).catch((err: Error) => {
          throw new ApiError(502, { detail: `${SERVED[served].what} cannot be reached: ${err.message}` });
        });
        markProxied(reply.raw);
        return reply
          .code(answer.statusCode ?? 502)
          .headers(answerHeaders(answer.headers, sandboxed))
          .send(answer);
      },
    });
  });

  onUpgrade(
    app,
    (path) => path.startsWith('/dashboard/'),
    (req, socket, head) => upgrade(app, deps, req, socket, head),
  );
}

/**
 * WebSockets (the dashboard's live plots, Jupyter's kernels): checked like any request, then
 * joined byte for byte, but for the upstream's answer head, whose state-setting headers are dropped.
 */
function upgrade(app: App, deps: Deps, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const match = PATH.exec(req.url ?? '');
  const deny = (status: number, text: string) =>
    socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  if (!match) return void deny(404, 'Not Found');
  const clusterId = Number(match[1]);
  const served: Served = isJupyter(match[2]) ? 'jupyter' : 'dashboard';
  const fromLink = new URLSearchParams(match[3] ?? '').get('token') ?? undefined;
  const cookies = app.parseCookie(req.headers.cookie ?? '');
  upstreamOf(app, deps, {
    clusterId,
    served,
    pass: fromLink ?? cookies[passCookie(clusterId)],
    // A socket changes what it likes: it is held to the rules of calls that change things.
    method: 'UPGRADE',
    host: req.headers.host,
    origin: req.headers.origin,
  }).then(
    ({ upstream }) => {
      // The client may have gone while the pass was checked: then there is nothing to join.
      if (socket.destroyed) return;
      let joined = false;
      const tunnel = connect(Number(upstream.port || 80), upstream.hostname, () => {
        const headers = {
          ...forwardedHeaders(req.headers, ['upgrade', 'connection']),
          host: upstream.host,
          ...credentialsFor(deps, { served, clusterId }),
        };
        const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
        tunnel.write(`${req.method} ${upstreamPath(req.url!)} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) tunnel.write(head);
        joined = true;
        socket.pipe(tunnel);
        passAnswerHead(tunnel, socket, close);
      });
      const close = () => {
        tunnel.destroy();
        socket.destroy();
      };
      // Once joined, the upstream's bytes are the answer: a failure then only closes both ends.
      tunnel.on('error', () => (joined ? close() : deny(502, 'Bad Gateway')));
      tunnel.once('close', close);
      socket.once('error', close);
      socket.once('close', close);
    },
    (err: unknown) => {
      if (err instanceof ApiError && err.statusCode === 404) return deny(404, 'Not Found');
      if (err instanceof ApiError && err.statusCode === 502) return deny(502, 'Bad Gateway');
      deny(403, 'Forbidden');
    },
  );
}

/** The upstream's answer to an upgrade: its head without state-setting headers, then everything as it comes. */
function passAnswerHead(tunnel: Duplex, socket: Duplex, close: () => void): void {
  let buffered = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) {
      if (buffered.length > 64 * 1024) close();
      return;
    }
    tunnel.off('data', onData);
    const [status, ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
    const kept = lines.filter((line) => {
      const name = line.slice(0, line.indexOf(':')).trim().toLowerCase();
      return !STATEFUL.has(name) && !name.startsWith('access-control-');
    });
    socket.write(`${[status, ...kept].join('\r\n')}\r\n\r\n`);
    const rest = buffered.subarray(end + 4);
    if (rest.length > 0) socket.write(rest);
    tunnel.pipe(socket);
  };
  tunnel.on('data', onData);
}
