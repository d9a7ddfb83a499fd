import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { instances } from '../src/db/schema/index.js';
import { ServerProcess } from './helpers/server-process.js';

/**
 * SIGTERM (an upgrade, a `docker stop`) costs nobody their work: the server takes no new
 * connection, lets the requests in flight finish (for at most CUMULUS_SHUTDOWN_GRACE_SECONDS,
 * then cuts them), stops its loops and exits 0, and every cluster keeps running.
 */
const GRACE_S = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request sent over a raw socket with only the first part of its body: it stays in flight. */
function startedRequest(server: ServerProcess, method: string, p: string, body: string) {
  const socket = connect(server.port, '127.0.0.1');
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    answer += chunk;
  });
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(answer)));
  socket.on('error', () => {});
  const half = Math.floor(body.length / 2);
  socket.write(
    `${method} ${p} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: ApiToken ${server.token}\r\n` +
      `connection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
  );
  return {
    socket: socket as Socket,
    /** Sends the rest of the body; answers the whole response once the server closes the socket. */
    finish: () => {
      socket.write(body.slice(half));
      return closed;
    },
    closed,
  };
}

describe('graceful shutdown', () => {
  it('finishes requests in flight, refuses new ones, exits 0 within the grace and leaves clusters running', async () => {
    const server = await ServerProcess.create({ CUMULUS_SHUTDOWN_GRACE_SECONDS: String(GRACE_S) });
    try {
      await server.seedToken();
      await server.start();
      const cluster = await server.readyCluster({ name: 'outlives-sigterm', workers: 0 });
      const before = (await server.instanceProcesses()).map((p) => p.pid).sort();
      expect(before.length).toBeGreaterThan(0);

      const slow = startedRequest(
        server,
        'PUT',
        '/api/v2/interactions/flag/user-source-dialog',
        '{"completed": true}',
      );
      // A client that never sends the rest: it holds the shutdown until the grace is over.
      const stuck = startedRequest(
        server,
        'PUT',
        '/api/v2/interactions/flag/user-source-dialog',
        '{"completed": true}',
      );
      await sleep(300);
      const child = server.child!;
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      await sleep(300);

      // A new connection is refused (or, on a kept-alive one, answered 503).
      const fresh = await fetch(`${server.url}/api/health`).then(
        (res) => res.status,
        () => 'refused',
      );
      expect([503, 'refused']).toContain(fresh);
      // The request in flight completes.
      const answer = await slow.finish();
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(child.exitCode).toBeNull();

      // The one that never completes is cut at the grace, and the process exits 0.
      expect(await exited).toBe(0);
      const tookMs = Date.now() - signalledAt;
      expect(tookMs).toBeGreaterThanOrEqual(GRACE_S * 1000 - 500);
      expect(tookMs).toBeLessThan(GRACE_S * 1000 + 2500);
      expect(await stuck.closed).not.toMatch(/^HTTP\/1\.1 2/);

      // The cluster is untouched: its processes live on and no instance was told to stop.
      expect((await server.instanceProcesses()).map((p) => p.pid).sort()).toEqual(before);
      const database = await openDatabase({
        databaseUrl: server.env.DATABASE_URL,
        pgliteDir: path.join(server.dataDir, 'pgdata'),
      });
      try {
        const rows = await database.db.select().from(instances);
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) expect([row.state, row.desiredState]).toEqual(['ready', 'ready']);
      } finally {
        await database.close();
      }
      expect(cluster.id).toBeGreaterThan(0);
    } finally {
      await server.cleanup();
    }
  }, 240_000);
});
