import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clusters, instances, sshPlacements } from '../src/db/schema/index.js';
import { createReadyCluster, runAgainst, waitFor, waitForClusterState } from './helpers/clusters.js';
import { rigHostBody } from './helpers/ssh-hosts.js';
import { useSshWorld } from './helpers/ssh-world.js';

/**
 * GPUs on SSH hosts, on a real sshd host of helpers/ssh-hosts.ts registered with 2 GPUs: a cluster
 * whose workers ask 1 GPU each gets the host's two devices, one each, in its workers'
 * `CUDA_VISIBLE_DEVICES` (read through a real distributed Client); the scheduler, asking none,
 * sees none; a third GPU worker waits with the reason. No GPU exists here: what is tested is the
 * placement and the variable the processes are given. One cluster start (the rig is machine-wide).
 */
const world = useSshWorld();

const hostBody = (gpus: number) => rigHostBody(world.rig, 0, { cores: 4, gpus });

const gpuCluster = (name: string) => ({
  name,
  workers: 2,
  worker_options: { nthreads: 1 },
  options: { worker_accelerator_count: 1 },
});

describe('GPUs on SSH hosts', () => {
  it('refuses at create a cluster asking more GPUs than any host has, naming their counts', async () => {
    const plain = await world.api.post(`/api/v2/ssh-hosts/${world.slug}`, hostBody(0));
    expect(plain.status).toBe(201);
    const refused = await world.api.post(
      `/api/v2/clusters/account/${world.slug}/`,
      gpuCluster('no-gpus-here'),
    );
    expect(refused.status).toBe(400);
    expect(refused.body['options.worker_accelerator_count']).toEqual([
      'No SSH host of this workspace has 1 GPU: rig-2 (127.0.0.2) has none. Ask for fewer GPUs per instance, or register a host with more (its gpus).',
    ]);
    // The same machine registered again, with its two GPUs.
    expect((await world.api.delete(`/api/v2/ssh-hosts/${world.slug}/${plain.body.id}`)).status).toBe(200);
    const added = await world.api.post(`/api/v2/ssh-hosts/${world.slug}`, hostBody(2));
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ gpus: 2, used_gpus: 0 });
    const three = await world.api.post(`/api/v2/clusters/account/${world.slug}/`, {
      ...gpuCluster('three-per-worker'),
      options: { worker_accelerator_count: 3 },
    });
    expect(three.status).toBe(400);
    expect(three.body['options.worker_accelerator_count']).toEqual([
      'No SSH host of this workspace has 3 GPUs: rig-2 (127.0.0.2) has 2. Ask for fewer GPUs per instance, or register a host with more (its gpus).',
    ]);
  }, 120_000);

  it("gives each GPU worker a device of its own in CUDA_VISIBLE_DEVICES; a third waits, the host's GPUs full", async () => {
    const details = await createReadyCluster(world.api, world.slug, gpuCluster('on-gpus'));
    const id = details.id as number;
    const seen = await runAgainst<{ workers: string[]; scheduler: string | null }>(
      details,
      `
with Client(address, security=sec, timeout=60) as client:
    client.wait_for_workers(2, timeout=60)
    def cuda():
        import os
        return os.environ.get("CUDA_VISIBLE_DEVICES")
    print(json.dumps({"workers": sorted(client.run(cuda).values()), "scheduler": client.run_on_scheduler(cuda)}))
`,
    );
    expect(seen).toEqual({ workers: ['0', '1'], scheduler: '' });

    const rows = await world.ts.server.deps.db.select().from(instances).where(eq(instances.clusterId, id));
    const placed = await world.ts.server.deps.db
      .select()
      .from(sshPlacements)
      .where(eq(sshPlacements.clusterId, id));
    const roleOf = new Map(rows.map((r) => [r.backendId, r.role]));
    expect(
      placed
        .map((p) => [roleOf.get(p.backendId), p.gpus, p.gpuDevices])
        .sort((a, b) => String(a).localeCompare(String(b))),
    ).toEqual([
      ['scheduler', 0, []],
      ['worker', 1, [0]],
      ['worker', 1, [1]],
    ]);
    const hosts = await world.api.get(`/api/v2/ssh-hosts/${world.slug}`);
    expect(hosts.body.items[0]).toMatchObject({ used_cores: 3, used_gpus: 2 });

    // A third worker of 1 GPU: the host has a core left but no GPU; it waits, the reason on the cluster.
    const added = await world.api.post(`/api/v2/workers/account/${world.slug}/cluster/${id}/`, {
      n_workers: 1,
    });
    expect(added.status).toBe(201);
    const reason = await waitFor('the third worker to wait for a GPU', async () => {
      const [row] = await world.ts.server.deps.db
        .select({ error: clusters.reconcileError })
        .from(clusters)
        .where(eq(clusters.id, id));
      return row?.error?.includes('full') ? row.error : undefined;
    });
    expect(reason).toContain(
      'Every SSH host that could hold 1 core, 1 GiB and 1 GPU is full (rig-2 (127.0.0.2): 1 of 4 cores and 0 of 2 GPUs free); waiting for room.',
    );
    const [third] = await world.ts.server.deps.db
      .select()
      .from(instances)
      .where(and(eq(instances.clusterId, id), eq(instances.name, added.body[0].name)));
    expect(third, JSON.stringify(third)).toMatchObject({ state: 'queued', launchedAt: null });

    expect((await world.api.delete(`/api/v2/clusters/account/${world.slug}/id/${id}`)).status).toBe(200);
    await waitForClusterState(world.api, world.slug, id, 'stopped', 120_000);
    // Released: the host's GPUs are free again.
    expect(
      await world.ts.server.deps.db.select().from(sshPlacements).where(eq(sshPlacements.clusterId, id)),
    ).toEqual([]);
    expect((await world.api.get(`/api/v2/ssh-hosts/${world.slug}`)).body.items[0]).toMatchObject({
      used_gpus: 0,
    });
  }, 300_000);
});
