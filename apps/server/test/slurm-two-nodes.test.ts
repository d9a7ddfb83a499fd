import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import {
  computeOn,
  createReadyCluster,
  startClusterServer,
  waitForClusterState,
} from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { type SlurmRig, startSlurmRig } from './helpers/slurm.js';

/**
 * The `slurm` backend across two nodes (helpers/slurm.ts with `secondNode`): `localhost`, this
 * machine, and `node2`, a slurmd in a network namespace of its own joined by a veth pair, each of 3
 * cores. The server listens on the host's end of the link, so agents on either node reach it, and
 * Dask's scheduler and workers reach each other across it.
 */
let rig: SlurmRig;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let api: Api;
let slug: string;

beforeAll(async () => {
  rig = await startSlurmRig({ cores: 3, memoryMib: 3 * 1024, secondNode: true });
  ts = await startClusterServer({ CUMULUS_SLURM_LOCAL_LOGIN: 'true' }, { host: rig.hostAddress! });
  const user = await createUser(ts);
  api = ts.api.as(user.key);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
  const added = await api.post(`/api/v2/slurm-clusters/${slug}`, {
    name: 'two',
    login: 'local',
    partition: rig.partition,
    node_cores: rig.cores,
    node_memory_mib: rig.memoryMib,
    python: '/usr/bin/python3',
  });
  expect(added.status).toBe(201);
}, 120_000);

// The server first (it stops the cluster's jobs), the rig whatever happened.
afterAll(() => Promise.resolve(ts?.close()).finally(() => rig?.close()), 120_000);

describe('slurm backend on two nodes', () => {
  it('runs a cluster across both nodes, one in a network namespace, and Dask computes across them', async () => {
    // The scheduler (1 core) and a worker (2) fill one node: the other worker runs on the other.
    const details = await createReadyCluster(api, slug, {
      name: 'across',
      workers: 2,
      worker_options: { nthreads: 2 },
    });
    const rows = await ts.server.deps.db.select().from(instances).where(eq(instances.clusterId, details.id));
    const nodes = rig
      .run('squeue', ['-h', '-o', '%j|%N'])
      .trim()
      .split('\n')
      .map((l) => l.split('|'))
      .filter(([name]) => rows.some((r) => name === `cumulus-c${details.id}-${r.backendId}`))
      .map(([, node]) => node);
    expect(nodes).toHaveLength(3);
    expect(new Set(nodes)).toEqual(new Set(['localhost', 'node2']));
    expect(await computeOn(details)).toMatchObject({ sum: 1_000_000, workers: 2 });
    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${details.id}`)).status).toBe(200);
    await waitForClusterState(api, slug, details.id, 'stopped', 120_000);
  }, 240_000);
});
