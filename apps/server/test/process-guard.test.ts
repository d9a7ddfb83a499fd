import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from './helpers/child-server.js';
import { pausedDownload } from './helpers/http-faults.js';
import { waitFor } from './helpers/wait.js';

/**
 * No error takes the server down: one that escapes every handler (thrown from a callback, a
 * rejection nobody awaited) is recorded with the id of the request it came from, ends that
 * request, and every other request goes on. The real server runs in a process of its own, with a
 * preload that makes reading certain files fail the way a broken disk or a library bug would.
 */
const FAULTS = path.resolve(import.meta.dirname, 'fixtures/faulty-disk.ts');
const BIG = 8 * 2 ** 20;
let server: ChildServer;
let storeId: number;

beforeAll(async () => {
  server = await startChildServer({ preload: [FAULTS] });
  const listed = await server.call('POST', '/api/v2/filestore/list', {
    names: ['faults'],
    workspace: server.slug,
  });
  storeId = listed.body.filestores[0].id;
}, 120_000);
afterAll(async () => server?.stop());

/** Puts `bytes` in the store at `name` through its upload link; answers its download link. */
async function stored(name: string, bytes: Buffer): Promise<string> {
  const up = await server.call('POST', `/api/v2/filestore/fs/${storeId}/signed-urls/upload`, {
    paths: [name],
  });
  const put = await fetch(up.body.urls[name], {
    method: 'PUT',
    headers: { 'content-type': 'binary/octet-stream' },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  const down = await server.call('POST', `/api/v2/filestore/fs/${storeId}/signed-urls/download`, {
    paths: [name],
  });
  return down.body.urls[name];
}

const alive = () => server.child.exitCode === null && server.child.signalCode === null;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The first log record (a line and its indented continuation) that contains `text`, once written. */
const recorded = (text: string) =>
  waitFor(
    `a log record with "${text}"`,
    async () =>
      server
        .log()
        .split(/\n(?=\S)/)
        .find((r) => r.includes(text)),
    10_000,
  );

describe('an error that escapes every handler', () => {
  it('ends the request it came from, is recorded with its id, and leaves other requests alone', async () => {
    const content = randomBytes(BIG);
    const bystander = await pausedDownload(await stored('fine.bin', content), {}, { keep: true });
    const faulty = await pausedDownload(await stored('big.escape-throw', randomBytes(BIG)));
    expect(faulty.status).toBe(200);
    const requestId = faulty.headers['x-request-id'] as string;

    // The read's callback throws while the answer waits for the client: the guard records it.
    const record = await recorded('an error escaped its request');
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(alive()).toBe(true);
    expect(record).toMatch(
      new RegExp(
        `^\\S+ ERROR an error escaped its request, which was ended; the server goes on serving err="test fault: the disk failed mid-read" origin=uncaughtException reqId=${requestId}\\n {4}Error: test fault: the disk failed mid-read\\n {8}at `,
      ),
    );

    // The client reading on finds that answer cut short: its connection was closed.
    faulty.resume();
    const ending = await faulty.ended;
    expect(ending.complete).toBe(false);
    expect(ending.bytes).toBeLessThan(BIG);

    // The download beside it was untouched: it reads on to the end, whole.
    bystander.resume();
    expect(await bystander.ended).toEqual({ complete: true, bytes: BIG });
    expect(sha(bystander.body())).toBe(sha(content));
  });

  it('records a rejection nobody awaited with the id of its request', async () => {
    const faulty = await pausedDownload(await stored('big.escape-reject', randomBytes(BIG)));
    const requestId = faulty.headers['x-request-id'] as string;
    const record = await recorded('test fault: a rejection nobody awaited');
    faulty.resume();
    expect((await faulty.ended).complete).toBe(false);
    expect(record).toContain(`origin=unhandledRejection reqId=${requestId}\n`);
    expect(record).toContain('an error escaped its request, which was ended');
    expect((await server.call('GET', '/api/v2/user/me')).status).toBe(200);
  });

  it('ends an answer whose source fails mid-stream, as Fastify does, and logs why', async () => {
    const failing = await pausedDownload(await stored('big.fail-read', randomBytes(BIG)));
    const requestId = failing.headers['x-request-id'] as string;
    const record = await recorded('the answer was cut short');
    failing.resume();
    expect((await failing.ended).complete).toBe(false);
    expect(record).toMatch(
      new RegExp(
        `^\\S+ WARN {2}the answer was cut short: its source failed path=/api/v2/filestore/blob/\\d+/download err="EIO: i/o error, read \\(test fault\\)" reqId=${requestId}\\n {4}Error: EIO`,
      ),
    );
    expect(server.log()).not.toContain(
      `escaped its request, which was ended; the server goes on serving err="EIO`,
    );
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('records an error of no request without naming one', async () => {
    server.child.kill('SIGUSR2');
    const record = await recorded('test fault: outside any request');
    expect(record).toMatch(
      /ERROR an error escaped outside any request; the server goes on serving err="test fault: outside any request" origin=uncaughtException\n/,
    );
    expect(record).not.toContain('reqId=');
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('keeps serving when its log cannot be written (the pipe to the log reader closed)', async () => {
    server.child.stdout!.destroy();
    // Every API request logs a line: each write now fails with EPIPE.
    for (let i = 0; i < 5; i++) {
      expect((await server.call('GET', '/api/v2/user/me')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(alive()).toBe(true);
  });
});
