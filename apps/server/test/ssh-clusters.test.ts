import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { agentBundleId } from '../src/compute/agent-bundle.js';
import { instances, softwareBuilds, sshPlacements } from '../src/db/schema/index.js';
import {
  computeOn,
  createReadyCluster,
  runAgainst,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { rigHostBody, rigProcessesOf } from './helpers/ssh-hosts.js';
import { useSshWorld } from './helpers/ssh-world.js';
import { builtEnvironment, uploadWheelPythonLacks } from './helpers/wheels.js';

/**
 * The `ssh` backend on two real sshd hosts (127.0.0.2, 127.0.0.3: the rig of helpers/ssh-hosts.ts):
 * hosts registered through the API with their host keys pinned, a cluster placed across both by
 * cores, real Dask computing there, a host that goes away mid-cluster, a stop that ends it all,
 * and a software environment built on a host and run from there by two clusters.
 */
// Lost after 10 s unreachable (half the heartbeat timeout): before the heartbeat's silence says so.
const world = useSshWorld({ hosts: 2, env: { CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '20' } });
const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-ssh-software-'));
const timings: Record<string, number> = {};

const hostBody = (i: number, extra: Record<string, unknown> = {}) => rigHostBody(world.rig, i, extra);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  console.log('cluster start (2 workers, ready):', timings);
});

/** Warm processes ready to be taken in each pool on the rig's home (compute/ssh/warm.ts). */
async function warmReady(home: string): Promise<number[]> {
  const root = path.join(home, '.cumulus', 'warm');
  const pools = existsSync(root) ? readdirSync(root) : [];
  return pools.map(
    (pool) =>
      readdirSync(path.join(root, pool)).filter((w) => {
        const out = path.join(root, pool, w, 'out');
        return w.startsWith('warm-') && existsSync(out) && readFileSync(out, 'utf8') === 'ready\n';
      }).length,
  );
}

describe('ssh backend', () => {
  it('starts a 2-worker local cluster first, for the start time to compare', async () => {
    const started = Date.now();
    const details = await createReadyCluster(world.api, world.slug, { name: 'local-timing', workers: 2 });
    timings.local_ms = Date.now() - started;
    expect(details.cluster_infra?.backend ?? 'in_process').not.toBe('ssh');
    await world.api.delete(`/api/v2/clusters/account/${world.slug}/id/${details.id}`);
    await waitForClusterState(world.api, world.slug, details.id, 'stopped');
  }, 180_000);

  it('registers a host only with its own host key pinned; the private key never comes back', async () => {
    const wrong = await world.api.post(
      `/api/v2/ssh-hosts/${world.slug}`,
      hostBody(0, { host_key: world.rig.hosts[1]!.hostKey }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.host_key).toEqual([
      `rig-2 (127.0.0.2) presented a host key other than the one pinned for it: refused (if the host was reinstalled, pin its new key).`,
    ]);
    const noDask = await world.api.post(
      `/api/v2/ssh-hosts/${world.slug}`,
      hostBody(0, { python: '/bin/true' }),
    );
    expect(noDask.status).toBe(400);
    expect(noDask.body.python).toBeDefined();

    for (const i of [0, 1]) {
      const added = await world.api.post(`/api/v2/ssh-hosts/${world.slug}`, hostBody(i));
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({ name: `rig-${i + 2}`, cores: 3, health: { status: 'ok' } });
      expect(added.body.health.dask_version).toMatch(/^\d/);
      expect(JSON.stringify(added.body)).not.toContain('PRIVATE KEY');
    }
    const listed = await world.api.get(`/api/v2/ssh-hosts/${world.slug}`);
    expect(listed.body.count).toBe(2);
    expect(JSON.stringify(listed.body)).not.toContain('PRIVATE KEY');
  }, 120_000);

  let clusterId: number;
  it('places a cluster across both hosts by cores and computes there with real Dask', async () => {
    // Each registered host keeps 3 warm processes (CUMULUS_SSH_WARM_PROCESSES), started meanwhile.
    await waitFor('3 warm processes ready on each host', async () => {
      const ready = await warmReady(world.rig.home);
      return ready.length === 2 && ready.every((n) => n === 3);
    });
    const started = Date.now();
    const details = await createReadyCluster(world.api, world.slug, {
      name: 'on-ssh',
      workers: 2,
      worker_options: { nthreads: 2 },
    });
    timings.ssh_ms = Date.now() - started;
    clusterId = details.id;
    const rows = await world.ts.server.deps.db
      .select()
      .from(instances)
      .where(eq(instances.clusterId, clusterId));
    expect(new Set(rows.map((r) => r.backendType))).toEqual(new Set(['ssh']));
    // Scheduler (1 core) and a worker (2) fill rig-2's 3 cores; the other worker goes to rig-3.
    const hostOf = (role: string) =>
      rows.filter((r) => r.role === role).map((r) => String(r.backendData?.host).split(' ')[0]);
    expect(hostOf('scheduler')).toEqual(['rig-2']);
    expect(hostOf('worker').sort()).toEqual(['rig-2', 'rig-3']);
    // Each instance is a warm process it took (its id recorded on the host and in its backend data).
    for (const row of rows) {
      expect(row.backendData?.warmId).toMatch(/^warm-[0-9a-f]{16}$/);
      expect(readFileSync(path.join(world.rig.home, '.cumulus', row.backendId, 'warm'), 'utf8').trim()).toBe(
        row.backendData?.warmId,
      );
    }
    // And the pools are filled again: 3 waiting on each host.
    await waitFor("the hosts' pools filled again", async () =>
      (await warmReady(world.rig.home)).every((n) => n === 3),
    );
    const hosts = await world.api.get(`/api/v2/ssh-hosts/${world.slug}`);
    expect(hosts.body.items.map((h: any) => [h.name, h.used_cores])).toEqual([
      ['rig-2', 3],
      ['rig-3', 2],
    ]);
    const result = await computeOn(details);
    expect(result).toMatchObject({ sum: 1_000_000, workers: 2 });
    expect(result.address).toMatch(/^tls:\/\/127\.0\.0\.2:/);
  }, 240_000);

  it('refuses, with the reason, an instance no host can hold', async () => {
    const created = await world.api.post(`/api/v2/clusters/account/${world.slug}/`, {
      name: 'too-big',
      workers: 1,
      worker_options: { nthreads: 8 },
    });
    expect(created.status).toBe(201);
    const reason = await waitFor('the worker to fail', async () => {
      const [w] = await world.ts.server.deps.db
        .select()
        .from(instances)
        .where(and(eq(instances.clusterId, created.body.id), eq(instances.role, 'worker')));
      return w?.state === 'error' ? w.stateReason : undefined;
    });
    expect(reason).toBe(
      'Could not launch: No SSH host of this workspace has 8 cores and 1 GiB: the largest, rig-2 (127.0.0.2), has 3 cores and 4 GiB.',
    );
    await world.api.delete(`/api/v2/clusters/account/${world.slug}/id/${created.body.id}`);
  }, 120_000);

  it('marks the instances of a host that goes away lost', async () => {
    const [onB] = await world.ts.server.deps.db
      .select()
      .from(instances)
      .where(and(eq(instances.clusterId, clusterId), eq(instances.role, 'worker')))
      .then((rows) => rows.filter((r) => String(r.backendData?.host).startsWith('rig-3 ')));
    // The machine dies: its sshd and every process of the instance there.
    await world.rig.hosts[1]!.stop();
    try {
      for (const p of await rigProcessesOf(world.rig.home, [onB!])) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // Gone already: it died with its sshd.
        }
      }
      const reason = await waitFor(
        'the lost instance to fail',
        async () => {
          const [row] = await world.ts.server.deps.db
            .select()
            .from(instances)
            .where(eq(instances.id, onB!.id));
          return row?.state === 'error' ? row.stateReason : undefined;
        },
        60_000,
      );
      // Whichever the control plane notices first: the backend's describe (the host unreachable past
      // its grace) or the worker's silence past the heartbeat timeout (on a loaded machine).
      expect(reason).toMatch(
        /^(Instance .* is gone: Lost with its host: rig-3 \(127\.0\.0\.3\) is unreachable on port \d+: connect ECONNREFUSED|Instance .* is gone: Its processes are no longer running on rig-3 \(127\.0\.0\.3\)|No heartbeat from instance on-ssh-worker-\w+ for 20 seconds)/,
      );
    } finally {
      await world.rig.hosts[1]!.start();
    }
  }, 120_000);

  it('stops the cluster: nothing of it runs on the hosts and their room is given back', async () => {
    const stopped = await world.api.delete(`/api/v2/clusters/account/${world.slug}/id/${clusterId}`);
    expect(stopped.status).toBe(200);
    await waitForClusterState(world.api, world.slug, clusterId, 'stopped', 120_000);
    const rows = await world.ts.server.deps.db
      .select()
      .from(instances)
      .where(eq(instances.clusterId, clusterId));
    const ids = new Set(rows.map((r) => r.backendId));
    expect(await rigProcessesOf(world.rig.home, rows)).toEqual([]);
    const left = await world.ts.server.deps.db.select().from(sshPlacements);
    expect(left.filter((p) => ids.has(p.backendId))).toEqual([]);
  }, 180_000);

  it('builds a pip environment on a host; two clusters run Dask from it, unpacked once, built once', async () => {
    const started = Date.now();
    // The hosts' Python (the rig's account runs the registered /usr/bin/python3) lacks the package.
    const fileId = await uploadWheelPythonLacks(
      world.api,
      world.slug,
      scratch,
      'ssh_synced_pkg',
      'built-on-a-host',
    );
    const { build, logs } = await builtEnvironment(
      world.api,
      world.slug,
      {
        name: 'on-hosts',
        packages: [{ name: 'ssh_synced_pkg', specifier: '==1.0.0', source: 'pip', file: fileId }],
      },
      120_000,
    );
    const buildId = build.id as number;
    expect(build).toMatchObject({ state: 'built', reason: '', backend_type: 'ssh' });
    expect(logs).toContain('Starting a build machine on the ssh backend');
    expect(logs.some((l) => /^Building on rig-\d \(127\.0\.0\.\d\) with \/usr\/bin\/python3$/.test(l))).toBe(
      true,
    );
    expect(logs.some((l) => /Successfully installed ssh[-_]synced[-_]pkg-1\.0\.0/.test(l))).toBe(true);
    const [row] = await world.ts.server.deps.db
      .select()
      .from(softwareBuilds)
      .where(eq(softwareBuilds.id, buildId));
    // The archive the host uploaded, kept here by content hash; the build's directory on the host is gone.
    expect(row!.location).toBe(
      path.join(
        world.ts.server.deps.config.dataDir,
        'environments',
        'archives',
        `env-${row!.lockfileHash}.tar.gz`,
      ),
    );
    expect(existsSync(path.join(world.rig.home, '.cumulus', `build-${buildId}`))).toBe(false);
    timings.build_ms = Date.now() - started;

    const probe = `
with Client(address, security=sec, timeout=60) as client:
    def probe():
        import sys, ssh_synced_pkg
        return {"value": ssh_synced_pkg.VALUE, "prefix": sys.prefix}
    print(json.dumps(client.submit(probe, pure=False).result(timeout=60)))
`;
    const unpacked = path.join(world.rig.home, '.cumulus', 'environments', row!.lockfileHash!);
    const ids: number[] = [];
    for (const name of ['env-on-ssh', 'env-on-ssh-again']) {
      const details = await createReadyCluster(world.api, world.slug, {
        name,
        workers: 1,
        env_name: 'on-hosts',
      });
      ids.push(details.id);
      const seen = await runAgainst<{ value: string; prefix: string }>(details, probe);
      expect(seen).toEqual({ value: 'built-on-a-host', prefix: unpacked });
    }
    // Built once: the second cluster ran the same build, and its agents found the copy unpacked.
    expect(
      await world.ts.server.deps.db
        .select()
        .from(softwareBuilds)
        .where(eq(softwareBuilds.specId, row!.specId)),
    ).toHaveLength(1);
    expect(readdirSync(path.join(world.rig.home, '.cumulus', 'environments'))).toEqual([row!.lockfileHash]);
    const again = await world.ts.server.deps.db
      .select()
      .from(instances)
      .where(eq(instances.clusterId, ids[1]!));
    expect(new Set(again.map((i) => i.backendType))).toEqual(new Set(['ssh']));
    for (const instance of again) {
      expect(
        readFileSync(path.join(world.rig.home, '.cumulus', instance.backendId, 'agent.log'), 'utf8'),
      ).toContain('is unpacked here already');
      // Nor was the agent fetched again: a warm process imported it from the host's copy of this
      // server's agent, or an instance started cold copied that copy.
      expect(
        typeof instance.backendData?.warmId === 'string' ||
          existsSync(path.join(world.rig.home, '.cumulus', instance.backendId, 'agent', 'cumulus')),
      ).toBe(true);
      expect(existsSync(path.join(world.rig.home, '.cumulus', instance.backendId, 'agent.tar.gz'))).toBe(
        false,
      );
    }
    const copies = readdirSync(path.join(world.rig.home, '.cumulus')).filter((d) => d.startsWith('agent-'));
    expect(copies).toEqual([`agent-${await agentBundleId()}`]);
    expect(existsSync(path.join(world.rig.home, '.cumulus', copies[0]!, '.complete'))).toBe(true);
    for (const id of ids) await world.api.delete(`/api/v2/clusters/account/${world.slug}/id/${id}`);
    for (const id of ids) await waitForClusterState(world.api, world.slug, id, 'stopped', 120_000);
    timings.environment_ms = Date.now() - started;
  }, 300_000);
});
