import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer as createHttpServer, get, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Duplex, Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type Backend, singleBackend } from '../src/compute/backend.js';
import { createLocalBackend } from '../src/compute/local.js';
import {
  batchJobs,
  clusterProcesses,
  clusters,
  instanceLogs,
  instances,
  packageFiles,
  runTasks,
  softwareAliases,
  softwareBuilds,
  softwareSpecs,
} from '../src/db/schema/index.js';
import { outputPath } from '../src/domains/batch/output.js';
import { issuePass } from '../src/domains/clusters/dashboards/passes.js';
import { fileOf } from '../src/domains/clusters/filestores/files.js';
import { archivePath } from '../src/domains/software/remote-builds.js';
import { sha256 } from '../src/lib/crypto.js';
import { freePort, PYTHON, startClusterServer, testSandbox } from './helpers/clusters.js';
import { createClusterRow, createUser, type TestUser, uniq } from './helpers/factories.js';
import { type PausedDownload, pausedDownload, truncatedUpload } from './helpers/http-faults.js';
import { captureLog } from './helpers/log-capture.js';
import type { TestServer } from './helpers/server.js';
import { waitFor } from './helpers/wait.js';

/**
 * Every streaming route over real HTTP, against a client that goes away mid-download, one that
 * stops reading (the server must wait, holding no more than a socket's worth), and one whose
 * upload breaks off: the server answers the next request and keeps nothing half-written. The
 * server logs as in production (text), so what Fastify logs of a cut stream goes through it.
 */
const BIG = randomBytes(16 * 2 ** 20);
const PIECE = BIG.subarray(0, 2 ** 20);
/** What a server may hold for one slow client: far less than the 16 MiB it streams. */
const HELD = 2 * 2 ** 20;
const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const log = captureLog('text');
let ts: TestServer & { url: string };
let user: TestUser;
let slug: string;
let workspaceId: number;
const sockets = new Set<Socket>();
let dashboard: Standin;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const asUser = () => ({ authorization: `Token ${user.key}` });

beforeAll(async () => {
  dashboard = await startStandin();
  // The stand-in plays the scheduler's dashboard: the backend vouches for its port on the scheduler
  // instance's address, as the local backend does for a port an instance's process listens on.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-streaming-'));
  const local = createLocalBackend({
    python: PYTHON,
    dataDir,
    baseEnv: {},
    stopGraceMs: 1_000,
    sandbox: testSandbox(dataDir),
  });
  const backend: Backend = { ...local, listensOn: async (_instance, { port }) => port === dashboard.port };
  ts = await startClusterServer({}, { logger: log.logger, backends: singleBackend(backend) });
  await ts.server.stopLoops();
  ts.app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  user = await createUser(ts);
  const me = (await ts.api.as(user.key).get('/api/v2/user/me')).body;
  slug = me.default_account.slug;
  workspaceId = me.default_account.id;
}, 120_000);

afterAll(async () => {
  process.off('uncaughtException', onEscape);
  await dashboard?.close();
  await ts?.close();
});

// The server runs in this process: an error no handler caught would land here (and take a real
// server down). None may, in any test.
const escaped: unknown[] = [];
const onEscape = (err: unknown) => escaped.push(err);
process.on('uncaughtException', onEscape);
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 50));
  expect(escaped).toEqual([]);
});

/** The most any connection of the server holds, unsent, in its own memory. */
const heldByServer = () => Math.max(0, ...[...sockets].map((s) => s.writableLength));

/** How many open descriptors of this process (the server's) are the file. */
function openHandles(file: string): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd'))
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) n++;
    } catch {}
  return n;
}

/** Partial files anywhere under the data directory. */
function partials(dir = ts.dataDir): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.includes('.partial-'));
}

async function answersNext(): Promise<void> {
  const health = await fetch(`${ts.url}/api/health`);
  expect(health.status).toBe(200);
  const me = await fetch(`${ts.url}/api/v2/user/me`, { headers: asUser() });
  expect(me.status).toBe(200);
}

async function put(url: string, headers: Record<string, string>, body: Buffer) {
  const res = await fetch(url, { method: 'PUT', headers, body: new Uint8Array(body) });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

// ---------------------------------------------------------------------------------------------
// What each route serves and takes, set up through the routes themselves where they can.

async function filestore() {
  const api = ts.api.as(user.key);
  const [store] = (await api.post('/api/v2/filestore/list', { names: [uniq('fs')], workspace: slug })).body
    .filestores;
  const links = async (direction: string, paths: string[]) =>
    (await api.post(`/api/v2/filestore/fs/${store.id}/signed-urls/${direction}`, { paths })).body.urls;
  await put((await links('upload', ['big.bin']))['big.bin'], { 'content-type': 'binary/octet-stream' }, BIG);
  const listed = async () =>
    (await api.get(`/api/v2/filestore/fs/${store.id}/download-with-urls`)).body.blobs_with_urls.map(
      (b: { relative_path: string; size: number }) => [b.relative_path, b.size],
    );
  return { store, links, listed, file: fileOf(ts.dataDir, store.id, 'big.bin')! };
}

async function jobOutputs() {
  const cluster = await createClusterRow(ts, { id: workspaceId }, { id: user.id });
  const token = ts.server.deps.secrets.decrypt(cluster.tokenBox);
  const { db } = ts.server.deps;
  const [job] = await db
    .insert(batchJobs)
    .values({
      workspaceId,
      creatorId: user.id,
      clusterId: cluster.id,
      userCommand: 'true',
      nTasks: 2,
      pipeToFiles: true,
      reconcileAt: null,
    })
    .returning();
  const tasks = await db
    .insert(runTasks)
    .values(
      [0, 1].map((i) => ({ clusterId: cluster.id, batchJobId: job!.id, arrayTaskId: i, command: 'true' })),
    )
    .returning();
  const uploadUrl = (i: number) => `${ts.url}/api/v2/cluster_facing/run-task/${tasks[i]!.id}/output`;
  const headers = { authorization: `Token ${token}`, 'content-type': 'application/octet-stream' };
  await put(uploadUrl(0), headers, BIG);
  return { cluster, token, job: job!, tasks, uploadUrl, headers };
}

async function buildArchives() {
  const { db } = ts.server.deps;
  const [alias] = await db
    .insert(softwareAliases)
    .values({ workspaceId, name: uniq('env') })
    .returning();
  const [spec] = await db
    .insert(softwareSpecs)
    .values({ aliasId: alias!.id, workspaceId, md5: 'f'.repeat(32) })
    .returning();
  const building = async () => {
    const token = `cbt_${randomBytes(24).toString('hex')}`;
    const [build] = await db
      .insert(softwareBuilds)
      .values({
        specId: spec!.id,
        workspaceId,
        state: 'building',
        backendType: 'local',
        tokenHash: sha256(token),
        reconcileAt: null,
      })
      .returning();
    const facing = `${ts.url}/api/v2/cluster_facing/software-environment/build/${build!.id}`;
    const link = await fetch(`${facing}/start-upload`, { method: 'POST', headers: bearer(token) });
    const { upload_url } = (await link.json()) as { upload_url: string };
    return { id: build!.id, token, facing, uploadUrl: upload_url };
  };
  const built = await building();
  await put(built.uploadUrl, { 'content-type': 'application/gzip' }, BIG);
  return { built, building };
}

async function indexWheels() {
  const api = ts.api.as(user.key);
  const announce = async (name: string, content: Buffer) =>
    (
      await api.post(`/api/v2/software-environment/account/${slug}/package-upload`, {
        name,
        md5: createHash('md5').update(content).digest('hex'),
        wheel_md5: createHash('md5').update(content).digest('base64'),
      })
    ).body as { id: number; upload_url: string };
  const name = `${uniq('streamed')}-1.0-py3-none-any.whl`;
  const wheel = await announce(name, BIG);
  await put(wheel.upload_url, { 'content-type': 'binary/octet-stream' }, BIG);
  const [row] = await ts.server.deps.db.select().from(packageFiles).where(eq(packageFiles.id, wheel.id));
  return { announce, wheel, name, row: row! };
}

interface Standin {
  port: number;
  /** Requests and tunnels it served, and whether each was closed before it ended. */
  served: { path: string; finished: boolean; closed: boolean; received: number }[];
  close(): Promise<void>;
}

/**
 * Stands in for a scheduler's dashboard (the third party past the proxy): `…/big` streams 16 MiB
 * as fast as its reader takes it; a WebSocket upgrade is answered with 101 and the same 16 MiB,
 * and counts what the client sends.
 */
async function startStandin(): Promise<Standin> {
  const served: Standin['served'] = [];
  const chunks = () =>
    Readable.from(Array.from({ length: 256 }, (_, i) => BIG.subarray(i * 65536, (i + 1) * 65536)));
  const server: Server = createHttpServer(async (req, res) => {
    const entry = { path: req.url ?? '', finished: false, closed: false, received: 0 };
    served.push(entry);
    res.once('finish', () => (entry.finished = true));
    res.once('close', () => (entry.closed = true));
    // `…/slow` thinks for up to 3 s before it answers (unless its caller has gone).
    if (req.url?.includes('/slow'))
      for (let waited = 0; waited < 3000 && !entry.closed; waited += 50)
        await new Promise((r) => setTimeout(r, 50));
    if (entry.closed) return;
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG.length });
    chunks().pipe(res);
  });
  const tunnels = new Set<Duplex>();
  server.on('upgrade', (req, socket) => {
    const entry = { path: req.url ?? '', finished: false, closed: false, received: 0 };
    served.push(entry);
    tunnels.add(socket);
    socket.on('error', () => {});
    // As a scheduler does: the other side's end is the end of the connection.
    socket.once('end', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => (entry.received += chunk.length));
    socket.once('close', () => (entry.closed = true));
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    const stream = chunks();
    stream.once('end', () => (entry.finished = true));
    stream.pipe(socket, { end: false });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        for (const socket of tunnels) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function dashboardCluster() {
  const cluster = await createClusterRow(ts, { id: workspaceId }, { id: user.id });
  const { db } = ts.server.deps;
  await db
    .update(clusters)
    .set({ dashboardAddress: `http://127.0.0.1:${dashboard.port}/` })
    .where(eq(clusters.id, cluster.id));
  const [scheduler] = await db
    .insert(clusterProcesses)
    .values({ clusterId: cluster.id, role: 'scheduler', name: `${cluster.name}-scheduler`, state: 'started' })
    .returning();
  await db.insert(instances).values({
    clusterId: cluster.id,
    processId: scheduler!.id,
    role: 'scheduler',
    name: `${cluster.name}-scheduler`,
    backendType: 'in_process',
    backendId: `local-${randomBytes(8).toString('hex')}`,
    state: 'ready',
    privateIpAddress: '127.0.0.1',
  });
  const pass = issuePass(ts.server.deps.config.secret, cluster.id, user.id);
  return { cluster, pass, url: (p: string) => `${ts.url}/dashboard/${cluster.id}/${p}?token=${pass}` };
}

/** A WebSocket upgrade over a raw socket; answers the socket once the head of the answer is read. */
function rawUpgrade(
  url: string,
  extra: Record<string, string> = {},
): Promise<{ socket: Socket; head: string; bytes: () => number }> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const headers = Object.entries(extra)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${headers}\r\n`,
      );
    });
    let got = Buffer.alloc(0);
    let bytes = 0;
    let resolved = false;
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      if (resolved) {
        bytes += chunk.length;
        return;
      }
      got = Buffer.concat([got, chunk]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      resolved = true;
      bytes = got.length - end - 4;
      resolve({ socket, head: got.subarray(0, end).toString('latin1'), bytes: () => bytes });
    });
  });
}

// ---------------------------------------------------------------------------------------------

interface Download {
  name: string;
  /** The URL and headers of a GET of a large answer, and what it must be. */
  start(): Promise<{ url: string; headers: Record<string, string>; body: Buffer; file?: string }>;
}

let filestoreSetup: Awaited<ReturnType<typeof filestore>>;
let jobSetup: Awaited<ReturnType<typeof jobOutputs>>;
let buildSetup: Awaited<ReturnType<typeof buildArchives>>;
let wheelSetup: Awaited<ReturnType<typeof indexWheels>>;
let dashSetup: Awaited<ReturnType<typeof dashboardCluster>>;
let clientPackage: Buffer;

beforeAll(async () => {
  filestoreSetup = await filestore();
  jobSetup = await jobOutputs();
  buildSetup = await buildArchives();
  wheelSetup = await indexWheels();
  dashSetup = await dashboardCluster();
  clientPackage = Buffer.from(await (await fetch(`${ts.url}/api/v2/client/cumulus.tar.gz`)).arrayBuffer());
}, 120_000);

const downloads: Download[] = [
  {
    name: 'a filestore file (batch job outputs, `--download`)',
    async start() {
      const url = (await filestoreSetup.links('download', ['big.bin']))['big.bin'];
      return { url, headers: {}, body: BIG, file: filestoreSetup.file };
    },
  },
  {
    name: "a batch task's output file (log)",
    async start() {
      return {
        url: `${ts.url}/api/v2/jobs/${jobSetup.job.id}/tasks/0/output`,
        headers: asUser(),
        body: BIG,
        file: outputPath(ts.dataDir, jobSetup.job.id, 0),
      };
    },
  },
  {
    name: "a build's environment archive",
    async start() {
      const { built } = buildSetup;
      return {
        url: `${built.facing}/download`,
        headers: bearer(built.token),
        body: BIG,
        file: archivePath(ts.dataDir, built.id),
      };
    },
  },
  {
    name: 'a wheel of the embedded package index',
    async start() {
      const { wheel, name } = wheelSetup;
      return {
        url: `${ts.url}/api/v2/packages/index/${slug}/files/${wheel.id}/${name}`,
        headers: asUser(),
        body: BIG,
        file: path.join(ts.dataDir, 'packages', String(workspaceId), wheelSetup.row.md5, name),
      };
    },
  },
  {
    name: 'the client package',
    async start() {
      return { url: `${ts.url}/api/v2/client/cumulus.tar.gz`, headers: {}, body: clientPackage };
    },
  },
  {
    name: "a scheduler's dashboard, through the proxy",
    async start() {
      return { url: dashSetup.url('big'), headers: {}, body: BIG };
    },
  },
];

describe.each(downloads)('downloading $name', (route) => {
  it('stops when the client goes away mid-stream, and answers the next request', async () => {
    const { url, headers, file } = await route.start();
    const served = dashboard.served.length;
    const download: PausedDownload = await pausedDownload(url, headers);
    expect(download.status).toBe(200);
    download.abort();
    await answersNext();
    // Nothing is left reading for a client that is gone: not the file, not the scheduler.
    if (file) await waitFor('the file closed', async () => openHandles(file) === 0, 5_000, 50);
    if (url.includes('/dashboard/')) {
      const upstream = dashboard.served[served]!;
      await waitFor('the scheduler answer dropped', async () => upstream.closed, 5_000, 50);
      expect(upstream.finished).toBe(false);
    }
  });

  it('holds no more than a socket buffer for a client that stops reading, then sends the rest', async () => {
    const { url, headers, body } = await route.start();
    const download = await pausedDownload(url, headers, { keep: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(heldByServer()).toBeLessThan(Math.min(HELD, body.length + 1));
    await answersNext();
    download.resume();
    expect(await download.ended).toEqual({ complete: true, bytes: body.length });
    expect(digest(download.body())).toBe(digest(body));
  });
});

it("logs a download cut short as the client's doing, with its path, through the text log", async () => {
  const record = log.lines.find((l) => l.includes('the connection closed while the answer was being sent'));
  expect(record).toMatch(
    / INFO {2}the connection closed while the answer was being sent path=\/api\/v2\/\S+ reqId=\S+\n$/,
  );
});

it('leaves nothing waiting on a scheduler for a client gone before it answered', async () => {
  const served = dashboard.served.length;
  const request = get(dashSetup.url('slow'), { agent: false });
  request.on('error', () => {});
  await waitFor('the request at the scheduler', async () => dashboard.served.length > served, 5_000, 20);
  request.destroy();
  await waitFor('the scheduler request dropped', async () => dashboard.served[served]!.closed, 2_000, 20);
  expect(dashboard.served[served]!.finished).toBe(false);
  await answersNext();
});

describe("the dashboard proxy's WebSockets", () => {
  it('close the scheduler side when the client goes away mid-stream', async () => {
    const served = dashboard.served.length;
    const { socket, head } = await rawUpgrade(dashSetup.url('ws'));
    expect(head).toMatch(/^HTTP\/1\.1 101 /);
    socket.destroy();
    await waitFor('the tunnel closed upstream', async () => dashboard.served[served]?.closed, 5_000, 50);
    await answersNext();
  });

  it('hold no more than a socket buffer for a client that stops reading, then pass the rest', async () => {
    const { socket, bytes } = await rawUpgrade(dashSetup.url('ws'));
    socket.pause();
    await new Promise((r) => setTimeout(r, 300));
    expect(heldByServer()).toBeLessThan(HELD);
    socket.resume();
    await waitFor('every byte through', async () => bytes() === BIG.length, 10_000, 50);
    socket.destroy();
  });

  it('close the scheduler side when an upload through them breaks off', async () => {
    const served = dashboard.served.length;
    const { socket } = await rawUpgrade(dashSetup.url('ws'));
    socket.write(PIECE);
    await waitFor(
      'the piece through',
      async () => dashboard.served[served]!.received === PIECE.length,
      5_000,
      50,
    );
    socket.resetAndDestroy();
    await waitFor('the tunnel closed upstream', async () => dashboard.served[served]!.closed, 5_000, 50);
    await answersNext();
  });

  it('survive a client that resets while its upgrade is being answered', async () => {
    for (const url of [
      `${ts.url}/ws/no-such-socket/`,
      `${ts.url}/dashboard/${dashSetup.cluster.id}/ws?token=forged`,
    ]) {
      const { socket, head } = await rawUpgrade(url);
      expect(head).toMatch(/^HTTP\/1\.1 (404|403) /);
      socket.resetAndDestroy();
    }
    await new Promise((r) => setTimeout(r, 200));
    await answersNext();
  });
});

it('survives a cluster-info WebSocket message over the size limit, closing that socket only', async () => {
  const socket = new WebSocket(`${ts.url.replace('http', 'ws')}/ws/api/v1/${slug}/cluster-info/`, {
    headers: { authorization: `Token ${user.key}` },
  });
  await new Promise((resolve, reject) => {
    socket.once('message', resolve);
    socket.once('error', reject);
  });
  const closed = new Promise<number>((resolve) => socket.once('close', resolve));
  socket.on('error', () => {});
  socket.send(Buffer.alloc(200 * 1024, 'x'));
  expect(await closed).toBe(1009);
  await answersNext();
});

// ---------------------------------------------------------------------------------------------

interface Upload {
  name: string;
  /** Where a cut-off upload goes, and the check that nothing of it was kept. */
  start(): Promise<{
    url: string;
    method: string;
    headers: Record<string, string>;
    /** Written to disk as it arrives: a partial file shows the body is being taken. */
    streamed: boolean;
    /** What is sent of the body (1 MiB of the big file unless said), announced as more. */
    body?: Buffer;
    nothingKept(): Promise<void>;
  }>;
}

const uploads: Upload[] = [
  {
    name: 'a filestore file (over one already whole)',
    async start() {
      const url = (await filestoreSetup.links('upload', ['cut.bin']))['cut.bin'];
      await put(url, { 'content-type': 'binary/octet-stream' }, Buffer.from('whole'));
      return {
        url,
        method: 'PUT',
        headers: { 'content-type': 'binary/octet-stream' },
        streamed: true,
        async nothingKept() {
          expect(await filestoreSetup.listed()).toEqual([
            ['big.bin', BIG.length],
            ['cut.bin', 5],
          ]);
        },
      };
    },
  },
  {
    name: "a batch task's output file",
    async start() {
      return {
        url: jobSetup.uploadUrl(1),
        method: 'PUT',
        headers: jobSetup.headers,
        streamed: true,
        async nothingKept() {
          const [task] = await ts.server.deps.db
            .select()
            .from(runTasks)
            .where(eq(runTasks.id, jobSetup.tasks[1]!.id));
          expect(task!.outputBytes).toBeNull();
          const output = await fetch(`${ts.url}/api/v2/jobs/${jobSetup.job.id}/tasks/1/output`, {
            headers: asUser(),
          });
          expect(output.status).toBe(404);
        },
      };
    },
  },
  {
    name: "a build's environment archive",
    async start() {
      const build = await buildSetup.building();
      return {
        url: build.uploadUrl,
        method: 'PUT',
        headers: { 'content-type': 'application/gzip' },
        streamed: true,
        async nothingKept() {
          const [row] = await ts.server.deps.db
            .select()
            .from(softwareBuilds)
            .where(eq(softwareBuilds.id, build.id));
          expect(row!.report?.archive).toBeUndefined();
          expect((await fetch(`${build.facing}/download`, { headers: bearer(build.token) })).status).toBe(
            404,
          );
        },
      };
    },
  },
  {
    name: 'a wheel for the embedded package index',
    async start() {
      const content = randomBytes(4 * 2 ** 20);
      const wheel = await wheelSetup.announce(`${uniq('cut')}-1.0-py3-none-any.whl`, content);
      return {
        url: wheel.upload_url,
        method: 'PUT',
        headers: { 'content-type': 'binary/octet-stream' },
        streamed: true,
        async nothingKept() {
          const [row] = await ts.server.deps.db
            .select()
            .from(packageFiles)
            .where(eq(packageFiles.id, wheel.id));
          expect(row!.uploaded).toBe(false);
        },
      };
    },
  },
  {
    name: "a batch job's compressed spec (user files)",
    async start() {
      const count = async () =>
        (await ts.api.as(user.key).get('/api/v2/jobs/', { query: { workspace: slug } })).body.count as number;
      const before = await count();
      return {
        url: `${ts.url}/api/v2/jobs/compressed`,
        method: 'POST',
        headers: { ...asUser(), 'content-type': 'application/octet-stream' },
        streamed: false,
        async nothingKept() {
          expect(await count()).toBe(before);
        },
      };
    },
  },
  {
    name: "an instance's batch of log lines",
    async start() {
      const [instance] = await ts.server.deps.db
        .select()
        .from(instances)
        .where(eq(instances.clusterId, jobSetup.cluster.id));
      return {
        url: `${ts.url}/api/v2/cluster_facing/logs`,
        method: 'POST',
        headers: { authorization: `Token ${jobSetup.token}`, 'content-type': 'application/json' },
        streamed: false,
        body: Buffer.from(
          JSON.stringify({
            backend_id: instance!.backendId,
            lines: [{ timestamp_ms: Date.now(), source: 'dask', message: 'cut' }],
          }),
        ),
        async nothingKept() {
          const lines = await ts.server.deps.db
            .select()
            .from(instanceLogs)
            .where(eq(instanceLogs.clusterId, jobSetup.cluster.id));
          expect(lines).toEqual([]);
        },
      };
    },
  },
];

describe.each(uploads)('uploading $name', (route) => {
  it('keeps nothing of an upload cut short, and answers the next request', async () => {
    const target = await route.start();
    const sent = target.body ?? PIECE;
    const answer = await truncatedUpload(
      target.url,
      { method: target.method, headers: target.headers, announced: sent.length * 4 + 1000, sent },
      target.streamed
        ? () => waitFor('the upload being written', async () => partials().length > 0, 5_000, 20)
        : undefined,
    );
    expect(answer).toBe('');
    await answersNext();
    await waitFor('no partial file left', async () => partials().length === 0, 5_000, 50);
    await target.nothingKept();
  });
});
