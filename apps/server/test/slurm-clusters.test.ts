import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances, softwareBuilds } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import {
  computeOn,
  createReadyCluster,
  freePort,
  restartAndAwaitInstances,
  runAgainst,
  startClusterServer,
  waitFor,
  waitForClusterState,
} from './helpers/clusters.js';
import { openTestDatabase } from './helpers/database.js';
import { createUser } from './helpers/factories.js';
import { type SlurmRig, startSlurmRig } from './helpers/slurm.js';
import { builtEnvironment, uploadWheelPythonLacks } from './helpers/wheels.js';

/**
 * The `slurm` backend on a real Slurm 22.05 (helpers/slurm.ts: munged, slurmctld and one slurmd of
 * 6 cores here), its login node this machine (CUMULUS_SLURM_LOCAL_LOGIN): the cluster connected
 * through the API, each scheduler and worker a Slurm job running the agent, real Dask computing
 * there, a job scancel'd under a running cluster reported with Slurm's word and replaced, a
 * cluster waiting for a node shown pending with squeue's reason, a running cluster adopted by the
 * next server after a restart (same database and address), and a stop that leaves no job behind;
 * then a workspace submitting through slurmrestd with a JWT (login `rest`, the rig's slurmrestd),
 * its jobs those of the token's user, adopted by the next server too.
 */
let rig: SlurmRig;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let port: number;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let api: Api;
let slug: string;
let userKey: string;
const env = { CUMULUS_SLURM_LOCAL_LOGIN: 'true' };
const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-slurm-software-'));

beforeAll(async () => {
  rig = await startSlurmRig({ cores: 6, memoryMib: 6 * 1024, rest: true });
  database = await openTestDatabase();
  port = await freePort();
  ts = await startClusterServer(env, { database, port });
  const user = await createUser(ts);
  userKey = user.key;
  api = ts.api.as(userKey);
  slug = (await api.get('/api/v2/user/me')).body.default_account.slug;
}, 120_000);

afterAll(async () => {
  try {
    await ts?.close();
    await database?.close();
  } finally {
    await rig?.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}, 120_000);

/** The jobs Slurm lists (`name|id|state|reason`), ended ones included. */
const jobs = () =>
  rig
    .run('squeue', ['-h', '-t', 'all', '-o', '%j|%i|%T|%r'])
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [name, id, state, reason] = l.split('|');
      return { name: name!, id: id!, state: state!, reason: reason! };
    });

const workerOf = async (clusterId: number) =>
  database.db
    .select()
    .from(instances)
    .where(and(eq(instances.clusterId, clusterId), eq(instances.role, 'worker')));

/** The cluster's instances that run (the failed one replaced is left out). */
const runningOf = async (clusterId: number) =>
  database.db
    .select()
    .from(instances)
    .where(and(eq(instances.clusterId, clusterId), ne(instances.state, 'error')));

describe('slurm backend', () => {
  it('connects the Slurm cluster once sinfo answers for its partition', async () => {
    const body = {
      name: 'rig',
      login: 'local',
      partition: rig.partition,
      time_limit_minutes: 60,
      node_cores: rig.cores,
      node_memory_mib: rig.memoryMib,
      python: '/usr/bin/python3',
    };
    const wrong = await api.post(`/api/v2/slurm-clusters/${slug}`, { ...body, partition: 'nowhere' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.partition?.[0]).toMatch(/nowhere/);
    const noAddress = await api.post(`/api/v2/slurm-clusters/${slug}`, { ...body, login: 'ssh' });
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.address).toEqual(['Required to reach the login node over SSH.']);

    const added = await api.post(`/api/v2/slurm-clusters/${slug}`, body);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      name: 'rig',
      login: 'local',
      partition: 'rig',
      health: { status: 'ok' },
    });
    expect(added.body.health.partition_state).toMatch(/^rig\*? up 1 idle/);
    const listed = await api.get(`/api/v2/slurm-clusters/${slug}`);
    expect(listed.body.count).toBe(1);
    expect(listed.body.logins).toEqual(['ssh', 'local', 'rest']);
  }, 60_000);

  let clusterId: number;
  it('runs each scheduler and worker as a Slurm job, and Dask computes there', async () => {
    const details = await createReadyCluster(api, slug, {
      name: 'on-slurm',
      workers: 2,
      worker_options: { nthreads: 2 },
    });
    clusterId = details.id;
    const rows = await database.db.select().from(instances).where(eq(instances.clusterId, clusterId));
    expect(new Set(rows.map((r) => r.backendType))).toEqual(new Set(['slurm']));
    const running = jobs().filter((j) => j.state === 'RUNNING');
    for (const row of rows) {
      const name = `cumulus-c${clusterId}-${row.backendId}`;
      expect(row.backendData).toMatchObject({ jobName: name });
      expect(running.map((j) => j.name)).toContain(name);
    }
    const result = await computeOn(details);
    expect(result).toMatchObject({ sum: 1_000_000, workers: 2 });
  }, 240_000);

  it('shows a cluster waiting for a node pending in the Slurm queue, with squeue’s reason', async () => {
    // on-slurm holds 5 of the node's 6 cores: this scheduler takes the last, its worker waits.
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'waits',
      workers: 1,
      worker_options: { nthreads: 2 },
    });
    expect(created.status).toBe(201);
    const reason = await waitFor(
      'the worker to say why it waits',
      async () => {
        const [w] = await workerOf(created.body.id);
        // The reason comes once Slurm's scheduler has looked at the job (a few seconds; longer under load).
        return w?.stateReason.startsWith('pending in the Slurm queue (') ? w.stateReason : undefined;
      },
      60_000,
    );
    expect(reason).toMatch(/^pending in the Slurm queue \((Resources|Priority)\)$/);
    const [w] = await workerOf(created.body.id);
    expect(w!.state).toBe('starting');
    const details = await api.get(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
    expect(JSON.stringify(details.body)).toContain('pending in the Slurm queue (');
    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`)).status).toBe(200);
    await waitForClusterState(api, slug, created.body.id, 'stopped', 120_000);
  }, 180_000);

  it('reports a job scancel’d under a running cluster with Slurm’s word for it, and replaces it', async () => {
    const workers = await workerOf(clusterId);
    const [worker] = workers;
    const jobId = String(worker!.backendData?.jobId);
    rig.run('scancel', [jobId]);
    const reason = await waitFor(
      'the cancelled worker to fail',
      async () => {
        const [row] = await database.db.select().from(instances).where(eq(instances.id, worker!.id));
        return row?.state === 'error' ? row.stateReason : undefined;
      },
      60_000,
    );
    expect(reason).toBe(`Instance ${worker!.name} is gone: Slurm ended job ${jobId}: CANCELLED`);
    // The cluster still wants two workers: a new one, a new Slurm job, running.
    const replacement = await waitFor(
      'a replacement worker to run',
      async () =>
        (await workerOf(clusterId)).find((w) => !workers.some((o) => o.id === w.id) && w.state === 'ready'),
      120_000,
    );
    const running = jobs().filter((j) => j.state === 'RUNNING');
    expect(running.map((j) => j.id)).toContain(String(replacement.backendData?.jobId));
    expect((await workerOf(clusterId)).filter((w) => w.state === 'ready')).toHaveLength(2);
    const details = await waitForClusterState(api, slug, clusterId, 'ready', 60_000);
    expect(await computeOn(details)).toMatchObject({ sum: 1_000_000, workers: 2 });
  }, 240_000);

  it('is adopted by the next server after a restart: the same instances and Slurm jobs, still computing', async () => {
    const before = await runningOf(clusterId);
    const jobsBefore = before.map((r) => String(r.backendData?.jobId)).sort();
    expect(before).toHaveLength(3);

    // The server goes away without stopping anything; the next one takes over.
    ts = await restartAndAwaitInstances(ts, env, { database, port }, clusterId, before.length);
    api = ts.api.as(userKey);
    // Reconcile passes later: the same instances, the same jobs, nothing submitted again.
    await new Promise((r) => setTimeout(r, 3000));
    const details = await waitForClusterState(api, slug, clusterId, 'ready');
    const after = await runningOf(clusterId);
    expect(after.map((r) => [r.id, r.state]).sort()).toEqual(before.map((r) => [r.id, r.state]).sort());
    const ours = jobs().filter((j) => j.name.startsWith(`cumulus-c${clusterId}-`) && j.state === 'RUNNING');
    expect(ours.map((j) => j.id).sort()).toEqual(jobsBefore);
    expect(await computeOn(details)).toMatchObject({ sum: 1_000_000, workers: 2 });
  }, 240_000);

  it('stops the cluster with scancel: none of its jobs is left queued or running', async () => {
    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${clusterId}`)).status).toBe(200);
    await waitForClusterState(api, slug, clusterId, 'stopped', 120_000);
    const left = jobs().filter(
      (j) =>
        j.name.startsWith(`cumulus-c${clusterId}-`) &&
        ['PENDING', 'RUNNING', 'CONFIGURING'].includes(j.state),
    );
    expect(left).toEqual([]);
  }, 180_000);

  it('builds a pip environment in a Slurm job, and a cluster runs Dask from it', async () => {
    const fileId = await uploadWheelPythonLacks(api, slug, scratch, 'slurm_synced_pkg', 'built-in-a-job');
    const { build, logs } = await builtEnvironment(
      api,
      slug,
      {
        name: 'on-slurm',
        packages: [{ name: 'slurm_synced_pkg', specifier: '==1.0.0', source: 'pip', file: fileId }],
      },
      120_000,
    );
    expect(build).toMatchObject({ state: 'built', reason: '', backend_type: 'slurm' });
    expect(
      logs.some((l) =>
        /^Building in Slurm job \d+ on the Slurm cluster rig with \/usr\/bin\/python3$/.test(l),
      ),
    ).toBe(true);
    expect(logs.some((l) => /Successfully installed slurm[-_]synced[-_]pkg-1\.0\.0/.test(l))).toBe(true);
    const [row] = await database.db.select().from(softwareBuilds).where(eq(softwareBuilds.id, build.id));
    const unpacked = path.join(homedir(), '.cumulus', 'environments', row!.lockfileHash!);
    try {
      expect(existsSync(path.join(homedir(), '.cumulus', `build-${build.id}`))).toBe(false);
      const details = await createReadyCluster(api, slug, {
        name: 'env-on-slurm',
        workers: 1,
        env_name: 'on-slurm',
      });
      const seen = await runAgainst<{ value: string; prefix: string }>(
        details,
        `
with Client(address, security=sec, timeout=60) as client:
    def probe():
        import sys, slurm_synced_pkg
        return {"value": slurm_synced_pkg.VALUE, "prefix": sys.prefix}
    print(json.dumps(client.submit(probe, pure=False).result(timeout=60)))
`,
      );
      expect(seen).toEqual({ value: 'built-in-a-job', prefix: unpacked });
      expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${details.id}`)).status).toBe(200);
      await waitForClusterState(api, slug, details.id, 'stopped', 120_000);
    } finally {
      rmSync(unpacked, { recursive: true, force: true });
    }
  }, 240_000);
});

describe('a Slurm cluster submitted to from the server’s own machine (login "local")', () => {
  it("runs only the operator's clusters: anyone else's code would run as the server's user", async () => {
    // The suite's user signed up first (the operator of a server with no staff); this one did not.
    const other = await createUser(ts);
    const theirs = ts.api.as(other.key);
    const theirSlug = (await theirs.get('/api/v2/user/me')).body.default_account.slug;
    const added = await theirs.post(`/api/v2/slurm-clusters/${theirSlug}`, {
      name: 'rig',
      login: 'local',
      partition: rig.partition,
      node_cores: rig.cores,
      node_memory_mib: rig.memoryMib,
      python: '/usr/bin/python3',
    });
    expect(added.status).toBe(201);
    const refused = await theirs.post(`/api/v2/clusters/account/${theirSlug}/`, {
      name: 'not-as-root',
      workers: 1,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('OPERATOR_ONLY');
    expect(refused.body.detail).toMatch(
      /^Only this server's operator can start clusters here: it runs them as its own user \(the Slurm cluster rig is submitted to from this server's machine \(login "local"\), so its jobs run as the server's user\)\./,
    );
    expect(
      rig
        .run('squeue', ['-h', '-o', '%j'])
        .split('\n')
        .some((j) => j.includes('not-as-root')),
    ).toBe(false);
  }, 60_000);
});

describe('a Slurm cluster reached through slurmrestd with a JWT (login "rest")', () => {
  it('refuses a token slurmrestd does not take, at its field; computes through it; is adopted after a restart; stops its jobs', async () => {
    // A workspace of a user who is not the operator: jobs run as the token's Slurm user, not the server's.
    const other = await createUser(ts);
    const theirs = ts.api.as(other.key);
    const theirSlug = (await theirs.get('/api/v2/user/me')).body.default_account.slug;
    const token = rig.rest!.token();
    const body = {
      name: 'rest',
      login: 'rest',
      rest_url: rig.rest!.url,
      user: rig.rest!.user,
      token,
      partition: rig.partition,
      node_cores: rig.cores,
      node_memory_mib: rig.memoryMib,
      python: '/usr/bin/python3',
    };
    const missing = await theirs.post(`/api/v2/slurm-clusters/${theirSlug}`, { ...body, token: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.token).toEqual(['Required to reach slurmrestd.']);
    const sshField = await theirs.post(`/api/v2/slurm-clusters/${theirSlug}`, { ...body, address: 'login1' });
    expect(sshField.status).toBe(400);
    expect(sshField.body.address).toEqual(['Not a field of login "rest".']);
    // Signed with another key: slurmctld refuses it, and the refusal is at the token.
    const [head, claims] = token.split('.');
    const forged = await theirs.post(`/api/v2/slurm-clusters/${theirSlug}`, {
      ...body,
      token: `${head}.${claims}.${Buffer.from('not the signature').toString('base64url')}`,
    });
    expect(forged.status).toBe(400);
    expect(forged.body.token?.[0]).toMatch(
      new RegExp(
        `^slurmrestd at ${rig.rest!.url} could not reach slurmctld as cumulus-slurm with this token`,
      ),
    );
    const nowhere = await theirs.post(`/api/v2/slurm-clusters/${theirSlug}`, {
      ...body,
      rest_url: `http://127.0.0.1:${await freePort()}`,
    });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.rest_url?.[0]).toMatch(/^slurmrestd at http:\/\/127\.0\.0\.1:\d+ did not answer/);

    const added = await theirs.post(`/api/v2/slurm-clusters/${theirSlug}`, body);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ login: 'rest', rest_url: rig.rest!.url, user: 'cumulus-slurm' });
    expect(added.body.health).toMatchObject({ status: 'ok', partition_state: 'rig* up 1' });
    expect(JSON.stringify(added.body)).not.toContain(token);
    // Builds are submitted on a login node: through slurmrestd the workspace's backend builds nothing.
    expect((await theirs.get(`/api/v2/user/account/${theirSlug}/options`)).body.capabilities.builds).toEqual(
      [],
    );
    // Its nodes have no GPUs (node_gpus 0): a cluster asking for them is refused, saying so.
    const gpus = await theirs.post(`/api/v2/clusters/account/${theirSlug}/`, {
      name: 'wants-gpus',
      workers: 1,
      options: { worker_accelerator_count: 1 },
    });
    expect(gpus.status).toBe(400);
    expect(gpus.body['options.worker_accelerator_count']).toEqual([
      'The nodes of the Slurm cluster rest have no GPUs (node_gpus): a worker of 1 cannot run there.',
    ]);

    const details = await createReadyCluster(theirs, theirSlug, {
      name: 'through-rest',
      workers: 1,
      worker_options: { nthreads: 1 },
    });
    const rows = await runningOf(details.id);
    expect(rows).toHaveLength(2);
    // Jobs of the token's user, named as sbatch's are.
    const users = rig
      .run('squeue', ['-h', '-t', 'R', '-o', '%j|%u'])
      .trim()
      .split('\n')
      .filter((l) => l.startsWith(`cumulus-c${details.id}-`));
    expect(users.map((l) => l.split('|')[1])).toEqual(['cumulus-slurm', 'cumulus-slurm']);
    expect(await computeOn(details)).toMatchObject({ sum: 1_000_000, workers: 1 });

    // A restarted server adopts the jobs it submitted through slurmrestd: the same jobs, nothing
    // submitted again, still computing.
    const jobsBefore = rows.map((r) => String(r.backendData?.jobId)).sort();
    ts = await restartAndAwaitInstances(ts, env, { database, port }, details.id, rows.length);
    api = ts.api.as(userKey);
    const again = ts.api.as(other.key);
    await new Promise((r) => setTimeout(r, 3000));
    const adopted = await waitForClusterState(again, theirSlug, details.id, 'ready');
    // The same instances, each ready (a worker read at the cluster's ready may still have said
    // 'started': its own ready comes a moment after).
    expect((await runningOf(details.id)).map((r) => [r.id, r.state]).sort()).toEqual(
      rows.map((r) => [r.id, 'ready']).sort(),
    );
    const ours = jobs().filter((j) => j.name.startsWith(`cumulus-c${details.id}-`) && j.state === 'RUNNING');
    expect(ours.map((j) => j.id).sort()).toEqual(jobsBefore);
    expect(await computeOn(adopted)).toMatchObject({ sum: 1_000_000, workers: 1 });

    // Its token is replaced while the cluster runs: one slurmrestd refuses (forged, expired) is
    // refused at the field; a good one is sealed, its expiry shown, and the cluster goes on with it.
    const renew = (t: string) =>
      again.put(`/api/v2/slurm-clusters/${theirSlug}/${added.body.id}/token`, { token: t });
    expect(
      (await renew(`${head}.${claims}.${Buffer.from('forged').toString('base64url')}`)).body.token?.[0],
    ).toMatch(/could not reach slurmctld as cumulus-slurm with this token/);
    const short = rig.rest!.token(1);
    await new Promise((r) => setTimeout(r, 2_000));
    const expired = await renew(short);
    expect(expired.status).toBe(400);
    expect(expired.body.token?.[0]).toMatch(
      /^The slurmrestd token of cumulus-slurm expired at \S+: an admin gives a new one/,
    );
    const fresh = await renew(rig.rest!.token(7_200));
    expect(fresh.status).toBe(200);
    expect(fresh.body.health).toMatchObject({ status: 'ok' });
    const expires = Date.parse(fresh.body.token_expires);
    expect(Math.abs(expires - (Date.now() + 7_200_000))).toBeLessThan(120_000);
    expect(JSON.stringify((await again.get(`/api/v2/slurm-clusters/${theirSlug}`)).body)).not.toContain(
      '.ey',
    );
    // Not a member of the workspace: no such cluster for them.
    expect(
      await api
        .put(`/api/v2/slurm-clusters/${theirSlug}/${added.body.id}/token`, { token })
        .then((r) => r.status),
    ).toBe(404);
    expect(await computeOn(adopted)).toMatchObject({ sum: 1_000_000, workers: 1 });

    expect((await again.delete(`/api/v2/clusters/account/${theirSlug}/id/${details.id}`)).status).toBe(200);
    await waitForClusterState(again, theirSlug, details.id, 'stopped', 120_000);
    const left = jobs().filter(
      (j) =>
        j.name.startsWith(`cumulus-c${details.id}-`) &&
        ['PENDING', 'RUNNING', 'CONFIGURING'].includes(j.state),
    );
    expect(left).toEqual([]);
  }, 300_000);
});
