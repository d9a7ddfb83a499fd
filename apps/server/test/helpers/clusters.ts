import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, gt, isNotNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { findInstanceProcesses, type LocalProcess } from '../../src/compute/local-processes.js';
import { LocalSandbox } from '../../src/compute/local-sandbox.js';
import { loadConfig } from '../../src/config.js';
import { clusters, instances } from '../../src/db/schema/index.js';
import type { ServerOptions } from '../../src/server.js';
import type { Api } from './api.js';
import { createUser, type TestUser } from './factories.js';
import { startTestServer, type TestServer } from './server.js';
import { freePort, waitFor } from './wait.js';

export { freePort, waitFor };

/** The environment the product's Python client runs in as a user's would: its own HOME, this server, a token. */
export function pythonClientEnv(server: string, token: string, pathPrefix = ''): Record<string, string> {
  return {
    PATH: `${pathPrefix}${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: mkdtempSync(path.join(tmpdir(), 'py-home-')),
    PYTHONPATH: path.resolve(import.meta.dirname, '../../../../python'),
    // The server shares two cores with other test files: an answer may take longer than 6 s.
    CUMULUS_REQUEST_TIMEOUT: '30',
    CUMULUS_SERVER: server,
    CUMULUS_API_TOKEN: token,
  };
}

export const PYTHON = '/usr/bin/python3';

/** Who a local backend a test builds itself runs clusters and builds as: as a server would, by default. */
export function testSandbox(dataDir: string, env: Record<string, string> = {}): LocalSandbox {
  const config = loadConfig({ CUMULUS_DATA_DIR: dataDir, CUMULUS_SECRET: 'x'.repeat(32), ...env });
  return new LocalSandbox({ ...config.localIsolation, dataDir, python: PYTHON });
}

/** Fast loop timings for tests; a test may override any. */
export const FAST_TIMINGS = {
  CUMULUS_RECONCILE_INTERVAL_SECONDS: '0.5',
  CUMULUS_HEARTBEAT_INTERVAL_SECONDS: '1',
  CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '60',
  CUMULUS_INSTANCE_STOP_GRACE_SECONDS: '5',
};

/**
 * A test server that really listens, so local instances (agents, Dask) can phone home to it.
 * close() stops every instance it launched before closing.
 */
export async function startClusterServer(
  env: Record<string, string> = {},
  options: ServerOptions & { port?: number; host?: string } = {},
): Promise<TestServer & { url: string }> {
  const port = options.port ?? (await freePort());
  // `host`: an address instances elsewhere (another network namespace) reach; this machine's loopback otherwise.
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host}:${port}`;
  const ts = await startTestServer({ ...FAST_TIMINGS, CUMULUS_PUBLIC_URL: url, ...env }, options);
  await ts.app.listen({ port, host });
  const close = ts.close;
  return {
    ...ts,
    url,
    async close() {
      // Loops first, or they would replace the instances being stopped.
      await ts.server.stopLoops();
      await stopAllInstances(ts);
      await close();
    },
  };
}

/**
 * The server goes away without stopping anything (a crash, a rolling restart) and the next one, on
 * the same database and address (`options`), takes over; then every instance of the cluster that
 * has not failed (`count` of them) heartbeats to it. Answers the next server.
 */
export async function restartAndAwaitInstances(
  first: Awaited<ReturnType<typeof startClusterServer>>,
  env: Record<string, string>,
  options: ServerOptions & { port: number },
  clusterId: number,
  count: number,
): Promise<Awaited<ReturnType<typeof startClusterServer>>> {
  await first.server.close();
  await first.smtp.stop();
  rmSync(first.dataDir, { recursive: true, force: true });
  const restartedAt = new Date();
  const next = await startClusterServer(env, options);
  await waitFor(
    'every instance heartbeating to the new server',
    async () => {
      const fresh = await next.server.deps.db
        .select({ id: instances.id })
        .from(instances)
        .where(
          and(
            eq(instances.clusterId, clusterId),
            ne(instances.state, 'error'),
            gt(instances.lastHeartbeat, restartedAt),
          ),
        );
      return fresh.length === count;
    },
    90_000,
  );
  return next;
}

/** Stops, through its backend, every instance this server's database knows. */
export async function stopAllInstances(ts: TestServer): Promise<void> {
  const { db, backends } = ts.server.deps;
  const rows = await db
    .select({ instance: instances, cluster: clusters })
    .from(instances)
    .innerJoin(clusters, eq(clusters.id, instances.clusterId))
    .where(isNotNull(instances.launchedAt));
  await Promise.all(
    rows.map(async ({ instance, cluster }) => (await backends.forCluster(cluster)).stop(instance)),
  );
}

/** Whether the backend still runs anything of the instance. */
export async function instanceRunning(
  ts: TestServer,
  instance: { backendId: string; backendData: Record<string, unknown> | null; clusterId: number },
): Promise<boolean> {
  const [cluster] = await ts.server.deps.db
    .select()
    .from(clusters)
    .where(eq(clusters.id, instance.clusterId));
  const backend = await ts.server.deps.backends.forCluster(cluster!);
  return (await backend.describe([instance])).get(instance.backendId)?.state !== 'gone';
}

/** Live processes (agents and Dask) of this server's instances. */
export async function instanceProcesses(ts: TestServer): Promise<LocalProcess[]> {
  const rows = await ts.server.deps.db.select({ backendId: instances.backendId }).from(instances);
  const ours = new Set(rows.map((r) => r.backendId));
  return (await findInstanceProcesses()).filter((p) => ours.has(p.backendId));
}

/**
 * What code running on a cluster can read: the cluster token and backend id its scheduler's agent
 * holds in its environment (a test plays a cluster's own code, or an agent that lies).
 */
export async function schedulerAgentCredentials(
  ts: TestServer,
  clusterId: number,
): Promise<{ token: string; backendId: string }> {
  const { readFile } = await import('node:fs/promises');
  const [scheduler] = await ts.server.deps.db
    .select({ backendId: instances.backendId })
    .from(instances)
    .where(and(eq(instances.clusterId, clusterId), eq(instances.role, 'scheduler')));
  for (const p of await findInstanceProcesses(scheduler!.backendId)) {
    const environ = await readFile(`/proc/${p.pid}/environ`, 'latin1').catch(() => '');
    const token = /(?:^|\0)CUMULUS_CLUSTER_TOKEN=([^\0]+)/.exec(environ)?.[1];
    if (token) return { token, backendId: scheduler!.backendId };
  }
  throw new Error(`no agent of cluster ${clusterId} holds its token`);
}

/** Waits until the cluster reaches `state` and returns its details. */
export async function waitForClusterState(
  api: Api,
  slug: string,
  id: number,
  state: string,
  timeoutMs = 120_000,
) {
  return waitFor(
    `cluster ${id} to be ${state}`,
    async () => {
      const res = await api.get(`/api/v2/clusters/account/${slug}/id/${id}`);
      if (res.status !== 200) throw new Error(`details answered ${res.status}`);
      const current = res.body.current_state.state;
      if (current === state) return res.body;
      if (current === 'error' && state !== 'error')
        throw new Error(`cluster failed: ${res.body.current_state.reason}`);
      return undefined;
    },
    timeoutMs,
  );
}

/** Runs a Python snippet under /usr/bin/python3; resolves with its stdout, rejects with its stderr. */
export function runPython(code: string, args: string[] = [], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(PYTHON, ['-c', code, ...args], { timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) reject(new Error(`python failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * Python that reads a cluster's details (a file named as its argument, else stdin) and sets
 * `address` and `sec` for a real distributed.Client over mutual TLS with the details' certificate,
 * at the address a client is told (client-contract section 3: the scheduler's public address when
 * `give_scheduler_public_ip`, else its private one, and `scheduler_port`).
 */
export const CONNECT = `
import sys, json, tempfile, os
from distributed import Client
from distributed.security import Security
details = json.loads(sys.stdin.read()) if len(sys.argv) < 2 else json.loads(open(sys.argv[1]).read())
d = tempfile.mkdtemp()
cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
open(cert, "w").write(details["cluster_options"]["tls_cert"])
open(key, "w").write(details["cluster_options"]["tls_key"])
sec = Security(tls_ca_file=cert, tls_client_cert=cert, tls_client_key=key, require_encryption=True)
instance = details["scheduler"]["instance"]
public = details["cluster_infra"]["give_scheduler_public_ip"] and instance["public_ip_address"]
ip = public or instance["private_ip_address"]
address = f"tls://{ip}:{details['scheduler_port']}"
`;

const SUM = `
with Client(address, security=sec, timeout=60) as client:
    import dask.array as da
    total = da.ones((1000, 1000), chunks=(100, 100)).sum().compute()
    workers = len(client.scheduler_info()["workers"])
    print(json.dumps({"sum": float(total), "workers": workers, "address": address}))
`;

/** CONNECT, then a sum computed on the cluster: prints the sum, the workers and the address. */
export const CONNECT_AND_SUM = `${CONNECT}${SUM}`;

/** Runs `code` (Python after CONNECT: `address`, `sec`, `details` are set) against the cluster of these details; answers the JSON it prints last. */
export async function runAgainst<T>(details: unknown, code: string, timeoutMs = 120_000): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cumulus-compute-'));
  try {
    const file = path.join(dir, 'details.json');
    writeFileSync(file, JSON.stringify(details));
    const out = await runPython(
      `${CONNECT}
${code}`,
      [file],
      timeoutMs,
    );
    return JSON.parse(out.trim().split('\n').at(-1)!) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Connects a real Dask client to the cluster of these details (CONNECT_AND_SUM) and computes a sum. */
export function computeOn(details: unknown): Promise<{ sum: number; workers: number; address: string }> {
  return runAgainst(details, SUM);
}

/** The pid of the Dask process (not the agent) of an instance, found by its command line. */
export async function daskPid(
  instance: string | { backendId: string; backendData: Record<string, unknown> | null },
  module: 'dask_scheduler' | 'dask_worker',
): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  // An instance in a warm process (compute/local-warm.ts) carries that process's id, and its Dask
  // (a fork) the name it gave itself rather than a command line of its own.
  const ids = typeof instance === 'string' ? [instance] : [instance.backendId, instance.backendData?.warmId];
  for (const p of (await findInstanceProcesses()).filter((p) => ids.includes(p.backendId))) {
    const cmdline = await readFile(`/proc/${p.pid}/cmdline`, 'latin1').catch(() => '');
    const comm = (await readFile(`/proc/${p.pid}/comm`, 'latin1').catch(() => '')).trim();
    if (cmdline.includes(`distributed.cli.${module}`) || comm === module.replace('_', '-')) return p.pid;
  }
  throw new Error(`no ${module} process for ${ids.join(' or ')}`);
}

/** Creates a cluster through the API and waits until it is ready. */
export async function createReadyCluster(api: Api, slug: string, body: Record<string, unknown>) {
  const created = await api.post(`/api/v2/clusters/account/${slug}/`, body);
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
  return waitForClusterState(api, slug, created.body.id, 'ready');
}

export interface ClusterTestContext {
  ts: TestServer & { url: string };
  user: TestUser;
  /** The user's personal workspace. */
  slug: string;
  /** The API as the user. */
  api: Api;
}

/** A listening cluster server and a user with a workspace for one test file; closed after it. */
export function useClusterServer(env: Record<string, string> = {}): ClusterTestContext {
  const context = {} as ClusterTestContext;
  beforeAll(async () => {
    context.ts = await startClusterServer(env);
    context.user = await createUser(context.ts);
    context.api = context.ts.api.as(context.user.key);
    context.slug = (await context.api.get('/api/v2/user/me')).body.default_account.slug;
  }, 120_000);
  afterAll(async () => {
    await context.ts?.close();
  });
  return context;
}
