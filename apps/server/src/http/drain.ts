import type { App } from './app-types.js';

/**
 * Stops taking requests and lets those in flight finish: the listening socket closes (new
 * connections are refused), a request arriving on a kept-alive connection is answered 503 with
 * `Connection: close`, idle connections are closed. Requests still open after `graceMs` have their
 * connections cut. Answers how many connections were cut.
 */
export async function drain(app: App, graceMs: number): Promise<number> {
  const closed = app.close().then(() => 'closed' as const);
  if ((await Promise.race([closed, after(graceMs)])) === 'closed') return 0;
  const open = await new Promise<number>((resolve) =>
    app.server.getConnections((err, count) => resolve(err ? 0 : count)),
  );
  app.server.closeAllConnections();
  // Upgraded sockets (WebSockets) are not HTTP connections: the app's own close hooks end them.
  await Promise.race([closed, after(1_000)]);
  return open;
}

function after(ms: number): Promise<'late'> {
  return new Promise((resolve) => setTimeout(() => resolve('late'), ms).unref());
}
