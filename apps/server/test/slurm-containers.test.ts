import { execFileSync } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { createReadyCluster, startClusterServer, waitFor, waitForClusterState } from './helpers/clusters.js';
import { buildOfContainer, testImages, whereInImage } from './helpers/containers.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';
import { type SlurmRig, startSlurmRig } from './helpers/slurm.js';

/**
 * Container environments on the `slurm` backend (the rig of helpers/slurm.ts, its login node this
 * machine): the image (the tests' Debian image with Dask, scripts/container-images.sh, one of this
 * machine's own, `localhost/`) is checked on the login node, and each scheduler and worker job runs
 * its agent and Dask inside it. The jobs run as root here (the server's user submits them), so the
 * container runs as nobody (65534), never root; scancel ends it with its job.
 */
const BASE = 'localhost/cumulus-test/dask:bookworm';
let rig: SlurmRig;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let api: Api;
let slug: string;

beforeAll(async () => {
  await testImages();
  rig = await startSlurmRig({ cores: 4, memoryMib: 4 * 1024 });
  database = await openTestDatabase();
  ts = await startClusterServer({ CUMULUS_SLURM_LOCAL_LOGIN: 'true' }, { database });
  api = ts.api.as((await createUser(ts)).key);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
  const added = await api.post(`/api/v2/slurm-clusters/${slug}`, {
    name: 'rig',
    login: 'local',
    partition: rig.partition,
    time_limit_minutes: 60,
    node_cores: rig.cores,
    node_memory_mib: rig.memoryMib,
    python: '/usr/bin/python3',
  });
  expect(added.status, added.text).toBe(201);
}, 900_000);

afterAll(async () => {
  try {
    await ts?.close();
    await database?.close();
  } finally {
    await rig?.close();
  }
}, 120_000);

/** This machine's containers of the given instances (root's podman: the jobs run as root). */
const containersOf = (backendIds: string[]) =>
  execFileSync('podman', ['ps', '--all', '--format', '{{.Names}}'], { encoding: 'utf8' })
    .split('\n')
    .filter((name) => backendIds.some((id) => name === `cumulus-${id}`));

describe('a container environment on Slurm', () => {
  it('is checked on the login node, and each job runs Dask inside the image as nobody; scancel leaves no container', async () => {
    const build = await buildOfContainer(api, slug, 'slurm-stack', BASE);
    expect(build.reason ?? '').toBe('');
    expect(build).toMatchObject({ state: 'built', backend_type: 'slurm' });
    const log = JSON.stringify(
      (await api.get(`/api/v2/software-environment/account/${slug}/build/logs/${build.id}`)).body,
    );
    expect(log).toContain('the login node of the Slurm cluster rig');

    const started = Date.now();
    const details = await createReadyCluster(api, slug, {
      name: 'slurm-contained',
      workers: 1,
      env_name: 'slurm-stack',
    });
    console.log('slurm container cluster start (1 worker, ready):', Date.now() - started, 'ms');
    const seen = await whereInImage(details);
    for (const where of [seen.scheduler, seen.worker])
      expect(where).toMatchObject({ image: BASE, uid: 65534 });
    expect(seen.sum).toBe(500500);
    const jobs = rig
      .run('squeue', ['-h', '-o', '%j'])
      .split('\n')
      .filter((n) => n.startsWith(`cumulus-c${details.id}-`));
    expect(jobs.length).toBe(2);
    const backendIds = (
      await database.db.select().from(instances).where(eq(instances.clusterId, details.id))
    ).map((i) => i.backendId!);
    expect(containersOf(backendIds).length).toBe(2);

    const stopped = await api.delete(`/api/v2/clusters/account/${slug}/id/${details.id}`);
    expect(stopped.status).toBe(200);
    await waitForClusterState(api, slug, details.id, 'stopped', 120_000);
    await waitFor(
      'its jobs and containers to be gone',
      async () => {
        const left = rig
          .run('squeue', ['-h', '-o', '%j'])
          .split('\n')
          .filter((n) => jobs.includes(n));
        return left.length === 0 && containersOf(backendIds).length === 0;
      },
      60_000,
    );
  }, 600_000);

  it("says why a job could not start its container, from the job's own words on the shared home", async () => {
    // An image the environment was built from, whose tag then moves to another image: the job refuses to run it.
    const moved = 'localhost/cumulus-test/moved:slurm';
    execFileSync('podman', ['tag', BASE, moved]);
    try {
      const build = await buildOfContainer(api, slug, 'slurm-moved', moved);
      expect(build).toMatchObject({ state: 'built' });
      execFileSync('podman', ['tag', 'localhost/cumulus-test/nodask:bookworm', moved]);
      const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
        name: 'slurm-moved',
        workers: 0,
        env_name: 'slurm-moved',
      });
      expect(created.status, created.text).toBe(201);
      const reason = await waitFor(
        "the scheduler's end, with why",
        async () => {
          const [row] = await database.db
            .select()
            .from(instances)
            .where(eq(instances.clusterId, created.body.id as number));
          return row?.stateReason.includes('is not the image its environment was built from')
            ? row.stateReason
            : false;
        },
        240_000,
      );
      // The job phones its words home at once (container-script.ts); the backend adds Slurm's where
      // it reads them from the shared home first: either way the start's own words lead.
      expect(reason).toMatch(
        /^localhost\/cumulus-test\/moved:slurm is not the image its environment was built from/,
      );
      await api.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
    } finally {
      execFileSync('podman', ['rmi', moved]);
    }
  }, 600_000);
});
