import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { ApiError } from '../../../http/errors.js';
import { onUpgrade } from '../../../http/upgrade.js';
import { dashboardPrefix, PASS_SECONDS, passCookie } from '../dashboards/passes.js';
import { forwardedHeaders, passedUpstream, upstreamPath } from '../dashboards/proxy.js';
import { jupyterToken } from './jupyter.js';

const PATH = /^\/dashboard\/(\d+)\/jupyter(?:\/[^?#]*)?(?:\?(.*))?$/;

/**
 * Jupyter through Cumulus: `/dashboard/{cluster}/jupyter/…` (every method, and WebSockets for the
 * kernels) goes to the Jupyter server on the notebook cluster's scheduler instance, under the same
 * rules as its dashboard: the reader's pass (`?token=` of the link, then the path-scoped cookie) is
 * checked on every request — the user must still be able to read the cluster — and the request
 * reaches Jupyter with Jupyter's own token, which only the control plane holds.
 */
export function registerJupyterProxy(app: App, deps: Deps): void {
  const { config } = deps;
  const secure = config.publicUrl.startsWith('https://');

  const upstreamOf = (clusterId: number, pass: string | undefined) =>
    passedUpstream(app, deps, clusterId, pass, 'jupyter');
  const authorization = (clusterId: number) => `token ${jupyterToken(config.secret, clusterId)}`;

  // Jupyter's own bodies (notebooks saved, kernels started) pass through unread.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/dashboard/:cluster/jupyter/*',
      config: { auth: 'none', csrf: false },
      schema: { hide: true },
      handler: async (request, reply) => {
        const clusterId = Number((request.params as { cluster: string }).cluster);
        const fromLink = (request.query as { token?: string }).token;
        const upstream = await upstreamOf(clusterId, fromLink ?? request.cookies[passCookie(clusterId)]);
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
              headers: {
                ...forwardedHeaders(request.headers),
                host: upstream.host,
                authorization: authorization(clusterId),
              },
              timeout: 60_000,
            },
            resolve,
          );
          outgoing.once('timeout', () => outgoing.destroy(new Error('Jupyter did not answer in time.')));
          outgoing.once('error', reject);
          request.raw.once('aborted', () => outgoing.destroy());
          request.raw.pipe(outgoing);
        }).catch((err: Error) => {
          throw new ApiError(502, { detail: `Jupyter cannot be reached: ${err.message}` });
        });
        return reply
          .code(answer.statusCode ?? 502)
          .headers(forwardedHeaders(answer.headers))
          .send(answer);
      },
    });
  });

  // Registered before the dashboard's (the first claim wins): kernels talk over WebSockets.
  onUpgrade(
    app,
    (path) => PATH.test(path),
    (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const match = PATH.exec(req.url ?? '');
      const deny = (status: number, text: string) =>
        socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      if (!match) return deny(404, 'Not Found');
      const clusterId = Number(match[1]);
      const fromLink = new URLSearchParams(match[2] ?? '').get('token') ?? undefined;
      const cookies = app.parseCookie(req.headers.cookie ?? '');
      upstreamOf(clusterId, fromLink ?? cookies[passCookie(clusterId)]).then(
        (upstream) => {
          const tunnel = connect(Number(upstream.port || 80), upstream.hostname, () => {
            const headers = {
              ...forwardedHeaders(req.headers, ['upgrade', 'connection']),
              host: upstream.host,
              authorization: authorization(clusterId),
            };
            const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
            tunnel.write(`${req.method} ${upstreamPath(req.url!)} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
            if (head.length > 0) tunnel.write(head);
            socket.pipe(tunnel).pipe(socket);
          });
          const close = () => {
            tunnel.destroy();
            socket.destroy();
          };
          tunnel.once('error', () => deny(502, 'Bad Gateway'));
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
