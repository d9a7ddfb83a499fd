import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DescribeImagesCommand,
  DescribeInstancesCommand,
  EC2Client,
  type Instance,
} from '@aws-sdk/client-ec2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { softwareBuilds } from '../src/db/schema/index.js';
import { buildsOfClusters } from '../src/domains/clusters/index.js';
import { collectEnvironments } from '../src/domains/software/gc.js';
import type { Api } from './helpers/api.js';
import { type AwsRig, openAwsRig } from './helpers/aws-rig.js';
import { runAgainst, waitFor, waitForClusterState } from './helpers/clusters.js';
import { makeWheel, uploadWheel } from './helpers/wheels.js';

/**
 * Builds per architecture on vm_aws: an environment's build for arm64 clusters is made on an
 * arm64 build machine (a Graviton type booting the region's arm64 image), kept apart from the
 * x86_64 one (its lockfile names the architecture, so its content hash differs), and each
 * cluster machine unpacks the archive of its own architecture; later clusters reuse both.
 *
 * The rig runs every "machine" on this x86_64 host, so arm code does not really run: the VMs of
 * arm64 images say they are aarch64 (CUMULUS_MACHINE_ARCH), and the test asserts what each build
 * machine was launched as and which archive each cluster machine runs Dask from.
 */
const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-ec2-arch-'));
let rig: AwsRig;
let api: Api;
let slug: string;
let armImage: string;

async function buildMachine(buildId: number): Promise<Instance | undefined> {
  const answer = await rig.ec2().send(
    new DescribeInstancesCommand({
      Filters: [{ Name: 'tag:cumulus:backend-id', Values: [`build-${buildId}`] }],
    }),
  );
  return answer.Reservations?.flatMap((r) => r.Instances ?? [])[0];
}

beforeAll(async () => {
  rig = await openAwsRig(async (moto) => {
    const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
    const images = await ec2.send(
      new DescribeImagesCommand({ Filters: [{ Name: 'architecture', Values: ['arm64'] }] }),
    );
    armImage = images.Images!.find((i) => i.ImageId?.startsWith('ami-'))!.ImageId!;
    return { arm_amis: { 'us-east-1': armImage } };
  });
  ({ api, slug } = rig);
}, 600_000); // may wait for another file's VMs (Ec2Machines.open)

afterAll(async () => {
  await rig?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const base = () => `/api/v2/software-environment/account/${slug}`;
const builds = () => rig.database.db.select().from(softwareBuilds).orderBy(softwareBuilds.id);
const logsOf = async (buildId: number) =>
  (await api.get(`${base()}/build/logs/${buildId}`, { query: { limit: 1000 } })).body.events.map(
    (e: { message: string }) => e.message,
  ) as string[];

/**
 * Polls the build's log and state as the console does while it runs: answers the machine's own
 * lines seen while the API still said `building`, and the build once it ended.
 */
async function watchBuild(buildId: number) {
  const seenWhileBuilding = new Set<string>();
  const build = await waitFor(
    `build ${buildId}`,
    async () => {
      const lines = await logsOf(buildId);
      const res = await api.get(`${base()}/build/${buildId}`);
      if (res.body.state === 'building') for (const line of lines) seenWhileBuilding.add(line);
      return ['built', 'error'].includes(res.body.state) && res.body;
    },
    300_000,
    100,
  );
  const [row] = await rig.database.db.select().from(softwareBuilds).where(eq(softwareBuilds.id, buildId));
  return { build, row: row!, seenWhileBuilding, logs: await logsOf(buildId) };
}

/** Where the scheduler's and each worker's Dask runs from, and what the synced package says there. */
const PREFIXES = `
def probe():
    import sys, arch_synced_pkg
    return {"prefix": sys.prefix, "value": arch_synced_pkg.VALUE}
with Client(address, security=sec, timeout=60) as client:
    client.wait_for_workers(1, timeout=120)
    print(json.dumps({"scheduler": client.run_on_scheduler(probe), "workers": list(client.run(probe).values())}))
`;

async function runAndProbe(name: string, body: Record<string, unknown>) {
  const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
    name,
    workers: 1,
    env_name: 'multi-arch',
    ...body,
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id as number;
}

async function probe(clusterId: number) {
  await waitForClusterState(api, slug, clusterId, 'ready', 300_000);
  const details = await waitFor('the addresses EC2 gave', async () => {
    const res = await api.get(`/api/v2/clusters/account/${slug}/id/${clusterId}`);
    return res.body.scheduler?.instance?.public_ip_address && res.body;
  });
  return runAgainst<{
    scheduler: { prefix: string; value: string };
    workers: { prefix: string; value: string }[];
  }>(details, PREFIXES, 240_000);
}

const unpacked = (hash: string | null) => path.join(rig.machines.workRoot, 'environments', hash!);

describe('software builds per architecture on vm_aws', () => {
  it('builds for arm64 on a Graviton machine from the arm64 image, keeps it apart from x86_64, and each machine runs its own', async () => {
    const fileId = await uploadWheel(
      api,
      slug,
      await makeWheel(scratch, 'arch_synced_pkg', '1.0.0', 'either-arch'),
    );
    const created = await api.post(base(), {
      name: 'multi-arch',
      packages: [{ name: 'arch_synced_pkg', specifier: '==1.0.0', source: 'pip', file: fileId }],
    });
    expect(created.status, created.text).toBe(201);

    // The environment's first build is for x86_64 (the spec's architecture, the default).
    const x86 = await watchBuild(created.body.latest_spec.latest_build.id);
    expect(x86.build.state, x86.build.reason).toBe('built');
    const x86Machine = await buildMachine(x86.build.id);
    // The workspace's first scheduler type of that architecture, on the region's x86_64 image.
    expect([x86Machine?.InstanceType, x86Machine?.ImageId]).toEqual(['m6i.xlarge', rig.image]);
    expect(x86.logs).toContain(`Build machine: m6i.xlarge (x86_64) from ${rig.image} in us-east-1`);
    expect(x86.row.lockfile!.split('\n')[0]).toMatch(/^# cumulus lockfile: Python \S+ x86_64 /);

    // An arm64 cluster of that environment: it waits for a build of its own, on an arm64 machine.
    const armCluster = await runAndProbe('graviton', {
      scheduler_instance_types: ['m7g.large'],
      worker_instance_types: ['m7g.large'],
    });
    const queued = await waitFor('the arm64 build', async () =>
      (await builds()).find((b) => b.architecture === 'aarch64'),
    );
    expect(queued.specId).toBe(x86.row.specId);
    const arm = await watchBuild(queued.id);
    expect(arm.build.state, arm.build.reason).toBe('built');
    const armMachine = await buildMachine(arm.build.id);
    expect([armMachine?.InstanceType, armMachine?.ImageId]).toEqual(['m7g.large', armImage]);
    expect(arm.logs).toContain(`Build machine: m7g.large (aarch64) from ${armImage} in us-east-1`);
    expect(arm.row.lockfile!.split('\n')[0]).toMatch(/^# cumulus lockfile: Python \S+ aarch64 /);
    // The same packages, another architecture: another content hash, another archive.
    expect(arm.row.lockfileHash).not.toBe(x86.row.lockfileHash);
    expect(arm.row.location).not.toBe(x86.row.location);
    expect(arm.logs.some((l) => l.startsWith('The same packages were built before'))).toBe(false);

    // The Software page's log is live: the build machine's own lines (shipped by its agent every
    // half second) were there while the build still ran.
    for (const watched of [x86, arm]) {
      expect([...watched.seenWhileBuilding]).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Creating a virtual environment from /),
          expect.stringMatching(/^Installing 1 requirement with pip$/),
        ]),
      );
    }

    const graviton = await probe(armCluster);
    expect(graviton.scheduler).toEqual({ prefix: unpacked(arm.row.lockfileHash), value: 'either-arch' });
    expect(graviton.workers).toEqual([{ prefix: unpacked(arm.row.lockfileHash), value: 'either-arch' }]);

    // A cluster of both (an x86_64 scheduler, arm64 workers) builds nothing more: each machine
    // unpacks the archive of its architecture.
    const mixed = await runAndProbe('mixed', { worker_instance_types: ['m7g.large'] });
    const both = await probe(mixed);
    expect(both.scheduler.prefix).toBe(unpacked(x86.row.lockfileHash));
    expect(both.workers.map((w) => w.prefix)).toEqual([unpacked(arm.row.lockfileHash)]);
    expect((await builds()).map((b) => [b.id, b.architecture])).toEqual([
      [x86.build.id, 'x86_64'],
      [arm.build.id, 'aarch64'],
    ]);

    // A newer spec takes the alias over while both clusters run: garbage collection keeps the
    // builds they run, of both architectures, though neither is the alias's latest any more.
    const newer = await api.post(base(), { name: 'multi-arch', raw_pip: [] });
    expect(newer.status, newer.text).toBe(201);
    expect((await watchBuild(newer.body.latest_spec.latest_build.id)).build.state).toBe('built');
    const { db, backends } = rig.ts.server.deps;
    await collectEnvironments(db, backends, {
      retentionMs: 0,
      dataDir: rig.ts.dataDir,
      log: rig.ts.app.log,
      buildsOfClusters: () => buildsOfClusters(db),
    });
    const kept = (await builds()).filter((b) => b.id === x86.build.id || b.id === arm.build.id);
    expect(kept.map((b) => [b.architecture, b.archivedAt, b.location])).toEqual([
      ['x86_64', null, x86.row.location],
      ['aarch64', null, arm.row.location],
    ]);

    await api.delete(`/api/v2/clusters/account/${slug}/id/${armCluster}`);
    await api.delete(`/api/v2/clusters/account/${slug}/id/${mixed}`);
  }, 900_000);
});
