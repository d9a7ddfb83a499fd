import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { inUpgradeContext } from './request-context.js';

type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
const routes = new WeakMap<
  FastifyInstance,
  { matches: (path: string) => boolean; handle: UpgradeHandler }[]
>();

/**
 * WebSocket upgrades by path: each module claims its paths (the dashboard proxy, the cluster-info
 * socket); one listener dispatches, and a path nobody claims is refused with a 404.
 */
export function onUpgrade(
  app: FastifyInstance,
  matches: (path: string) => boolean,
  handle: UpgradeHandler,
): void {
  let list = routes.get(app);
  if (!list) {
    const handlers: { matches: (path: string) => boolean; handle: UpgradeHandler }[] = [];
    list = handlers;
    routes.set(app, handlers);
    app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Node leaves an upgraded socket without an 'error' listener: a client's reset would be thrown.
      socket.on('error', () => socket.destroy());
      inUpgradeContext(req.headers, socket, () => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        const route = handlers.find((r) => r.matches(path));
        if (route) return route.handle(req, socket, head);
        socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      });
    });
  }
  list.push({ matches, handle });
}
