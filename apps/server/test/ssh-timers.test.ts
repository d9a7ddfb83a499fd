import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { clusterProcesses, instances, sshPlacements } from '../src/db/schema/index.js';
import { findUserBy } from '../src/domains/identity/auth/service.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import { PYTHON, pythonClientEnv, runAgainst, waitFor, waitForClusterState } from './helpers/clusters.js';
import { rigHostBody, rigProcessesOf } from './helpers/ssh-hosts.js';
import { useSshWorld } from './helpers/ssh-world.js';

/**
 * The timers and adaptive scaling of clusters on SSH hosts, on one real sshd host of the rig
 * (helpers/ssh-hosts.ts): a cluster whose idle timeout passes with no work stops by itself, saying
 * why, nothing of it left on the host; and a cluster the product's Python client adapts between 1
 * and 2 workers grows to 2 on the host under a real Dask workload, then gives the second back, its
 * processes gone from the host and its cores free again.
 */
// No warm processes here (CUMULUS_SSH_WARM_PROCESSES=0): these instances start cold, fetching or
// copying the agent, the path ssh-clusters' instances take only when no warm process is ready.
const world = useSshWorld({
  env: { CUMULUS_SSH_WARM_PROCESSES: '0' },
  register: (rig) => [rigHostBody(rig, 0, { cores: 4, memory_mib: 8192 })],
});
let apiToken: string;

beforeAll(async () => {
  const owner = (await findUserBy(world.ts.server.deps.db, 'id', world.user.id))!;
  apiToken = (await createToken(world.ts.server.deps.db, owner, { label: 'ssh-timers' })).token;
});

const rowsOf = (clusterId: number) =>
  world.ts.server.deps.db.select().from(instances).where(eq(instances.clusterId, clusterId));

/** The cluster's worker instances, named as their workers (as Dask knows them). */
const workerRowsOf = (clusterId: number) =>
  world.ts.server.deps.db
    .select({
      id: instances.id,
      name: clusterProcesses.name,
      state: instances.state,
      stateReason: instances.stateReason,
      backendId: instances.backendId,
      backendType: instances.backendType,
    })
    .from(instances)
    .innerJoin(clusterProcesses, eq(clusterProcesses.id, instances.processId))
    .where(and(eq(instances.clusterId, clusterId), eq(instances.role, 'worker')));

/** The processes (agents and Dask) of these instances still running on the host. */
const processesOf = async (backendIds: string[]) =>
  rigProcessesOf(
    world.rig.home,
    await world.ts.server.deps.db.select().from(instances).where(inArray(instances.backendId, backendIds)),
  );

const placementsOf = (backendIds: string[]) =>
  world.ts.server.deps.db.select().from(sshPlacements).where(inArray(sshPlacements.backendId, backendIds));

const usedCores = async () =>
  (await world.api.get(`/api/v2/ssh-hosts/${world.slug}`)).body.items[0].used_cores as number;

describe('ssh clusters: idle timeout', () => {
  it('keeps a cluster through work longer than its idle timeout, then stops it idle, nothing left on the host', async () => {
    const created = await world.api.post(`/api/v2/clusters/account/${world.slug}/`, {
      name: 'idles',
      workers: 1,
      scheduler_options: { idle_timeout: '15 seconds' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const details = await waitForClusterState(world.api, world.slug, id, 'ready', 180_000);
    const rows = await rowsOf(id);
    expect(rows.map((r) => r.backendType)).toEqual(['ssh', 'ssh']);
    const ids = rows.map((r) => r.backendId);
    expect(new Set((await processesOf(ids)).map((p) => p.backendId))).toEqual(new Set(ids));
    expect(await usedCores()).toBe(2);

    // A task running longer than the idle timeout is work: the cluster stays (a stop under it fails it).
    const done = await runAgainst<{ started: number; ended: number }>(
      details,
      `
import time
def work():
    started = time.time()
    time.sleep(20)
    return {"started": started, "ended": time.time()}
with Client(address, security=sec, timeout=60) as client:
    print(json.dumps(client.submit(work, pure=False).result(timeout=120)))
`,
    );
    // The host's clock is this machine's (the rig's hosts are its loopback addresses).
    const workEnded = done.ended * 1000;
    expect(done.ended - done.started).toBeGreaterThanOrEqual(20);
    expect(
      (await world.api.get(`/api/v2/clusters/account/${world.slug}/id/${id}`)).body.current_state.state,
    ).toBe('ready');

    // Then nothing runs: the scheduler's idle clock on the host asks the server to stop the cluster.
    const stopped = await waitForClusterState(world.api, world.slug, id, 'stopped', 120_000);
    expect(stopped.current_state.reason).toBe('Cluster idle for 15 seconds (idle_timeout)');
    const states = await world.api.get(`/api/v2/clusters/account/${world.slug}/id/${id}/states`);
    // The first the server heard of the idle stop (the cluster stopping, or stopped, for it).
    const asked = (states.body.cluster as { updated: string; reason: string }[]).find((s) =>
      s.reason.endsWith('(idle_timeout)'),
    );
    // Idle from the end of the work on, not from its start (a clock that ignored it would have
    // asked about 15 s after the task began, while it ran).
    expect(new Date(asked!.updated).getTime() - workEnded).toBeGreaterThanOrEqual(15_000);
    expect(await processesOf(ids)).toEqual([]);
    expect(await placementsOf(ids)).toEqual([]);
    expect(await usedCores()).toBe(0);
  }, 300_000);
});

/**
 * The product's Python client (cumulus.Cluster) adapting between 1 and 2 workers under a real
 * workload; it says where it is on stdout (one JSON line an event) and waits for a line on stdin
 * at `grown` and `shrunk`, while the test looks at the host.
 */
const ADAPT = `
import json, sys, time
import cumulus
from distributed import Client

def say(event, **data):
    print(json.dumps({"event": event, **data}), flush=True)

def wait_until(what, check, timeout=300):
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.2)

cluster = cumulus.Cluster(name="adapts", n_workers=1, package_sync=False, credentials=None, quiet=True,
                          wait_for_workers=True, timeout=300)
try:
    with Client(cluster) as client:
        say("ready", cluster_id=cluster.cluster_id)
        adaptive = cluster.adapt(minimum=1, maximum=2, interval="500ms", wait_count=2, target_duration="1s")
        futures = client.map(lambda i: time.sleep(1) or i, range(60))
        arrived = lambda n: len(client.scheduler_info()["workers"]) == n
        wait_until("adapt to ask for a second worker and it to arrive", lambda: len(cluster.plan) == 2 and arrived(2))
        say("grown", workers=sorted(cluster.plan))
        sys.stdin.readline()
        total = sum(client.gather(futures))
        del futures
        wait_until("adapt to give the second worker back", lambda: len(cluster.plan) == 1 and arrived(1))
        say("shrunk", total=total, workers=sorted(cluster.plan))
        sys.stdin.readline()
        adaptive.stop()
finally:
    cluster.close()
say("closed")
`;

describe('ssh clusters: adaptive scaling', () => {
  it('grows to 2 workers on the host under a Dask workload and gives one back after it, freeing its cores', async () => {
    const child = spawn(PYTHON, ['-c', ADAPT], {
      env: pythonClientEnv(world.ts.url, apiToken),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const events: Record<string, any>[] = [];
    let outputEnded = false;
    createInterface({ input: child.stdout })
      .on('line', (line) => {
        try {
          events.push(JSON.parse(line));
        } catch {
          // The client's own output.
        }
      })
      .on('close', () => {
        outputEnded = true;
      });
    // What the client said, read first: its last line can arrive after its exit is seen. Its
    // output ended without the line: the wait fails with the client's stderr.
    const event = (name: string) =>
      waitFor(
        `the client to say ${name}`,
        async () => {
          const said = events.find((e) => e.event === name);
          if (said) return said;
          if (outputEnded) throw new Error(`the client exited ${child.exitCode}: ${stderr.slice(-3000)}`);
          return undefined;
        },
        300_000,
        200,
      );
    try {
      const { cluster_id: id } = await event('ready');
      const grown = await event('grown');
      expect(grown.workers).toHaveLength(2);
      // Dask's worker names are the server's workers' (what adapt retires by).
      const workers = await waitFor('both workers ready on the host', async () => {
        const rows = (await workerRowsOf(id)).filter((r) => r.state === 'ready');
        if (rows.length !== 2) throw new Error(`worker instances: ${JSON.stringify(rows)}`);
        return rows;
      });
      expect(workers.map((w) => w.backendType)).toEqual(['ssh', 'ssh']);
      expect(workers.map((w) => w.name).sort()).toEqual(grown.workers);
      const workerIds = workers.map((w) => w.backendId);
      expect(new Set((await processesOf(workerIds)).map((p) => p.backendId))).toEqual(new Set(workerIds));
      // The scheduler's core and each worker's one thread.
      expect(await usedCores()).toBe(3);
      child.stdin.write('\n');

      const shrunk = await event('shrunk');
      expect(shrunk.total).toBe(1770);
      expect(shrunk.workers).toHaveLength(1);
      const kept = workers.find((w) => w.name === shrunk.workers[0])!;
      const released = workers.find((w) => w.name !== shrunk.workers[0])!;
      const ended = await waitFor('the released worker to end', async () => {
        const [row] = await world.ts.server.deps.db
          .select()
          .from(instances)
          .where(eq(instances.id, released.id));
        return (row?.state === 'stopped' || row?.state === 'error') && row;
      });
      // Stopped as the client asked (its agent's log says how it ended otherwise), not failed or lost.
      const agentLog = path.join(world.rig.home, '.cumulus', released.backendId, 'agent.log');
      expect(
        [ended.state, ended.stateReason],
        existsSync(agentLog) ? readFileSync(agentLog, 'utf8') : '',
      ).toEqual(['stopped', expect.not.stringMatching(/exited|killed|gone|lost|heartbeat/)]);
      // What the console shows of it: scaled down, by whom.
      const shown = (
        await world.api.get(`/api/v2/clusters/account/${world.slug}/id/${id}`)
      ).body.workers.find((w: any) => w.name === released.name);
      expect(shown.current_state).toMatchObject({
        state: 'stopped',
        reason: expect.stringMatching(/^Scaled down by /),
      });
      await waitFor(
        'its processes gone from the host',
        async () => (await processesOf([released.backendId])).length === 0,
      );
      // Its placement released once the server saw it gone: the host's core is free again.
      await waitFor(
        'its placement released',
        async () => (await placementsOf([released.backendId])).length === 0,
      );
      expect(await usedCores()).toBe(2);
      // The other worker runs on, and the cluster with it.
      expect((await processesOf([kept.backendId])).length).toBeGreaterThan(0);
      expect(
        (await world.api.get(`/api/v2/clusters/account/${world.slug}/id/${id}`)).body.current_state.state,
      ).toBe('ready');
      child.stdin.write('\n');

      await event('closed');
      expect(await exited, stderr.slice(-3000)).toBe(0);
      await waitForClusterState(world.api, world.slug, id, 'stopped', 120_000);
      const all = (await rowsOf(id)).map((r) => r.backendId);
      expect(await processesOf(all)).toEqual([]);
      expect(await usedCores()).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 420_000);
});
