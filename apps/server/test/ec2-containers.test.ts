import { execFileSync } from 'node:child_process';
import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from './helpers/api.js';
import { type AwsRig, openAwsRig } from './helpers/aws-rig.js';
import { waitFor, waitForClusterState } from './helpers/clusters.js';
import { buildOfContainer, testImages, whereInImage } from './helpers/containers.js';

/**
 * Container environments on vm_aws (the EC2 rig: moto, each VM's user-data run here as root): the
 * image (the tests' Debian image with Dask, scripts/container-images.sh) is checked on the server,
 * once, its lockfile naming its architecture; a cluster of x86_64 instance types runs its agent and
 * Dask in it on each VM as nobody (never root), and one of Graviton (aarch64) types is refused at
 * create, naming both architectures.
 */
const BASE = 'localhost/cumulus-test/dask:bookworm';
let rig: AwsRig;
let api: Api;
let slug: string;

beforeAll(async () => {
  await testImages();
  rig = await openAwsRig(async (moto) => {
    const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
    const images = await ec2.send(
      new DescribeImagesCommand({ Filters: [{ Name: 'architecture', Values: ['arm64'] }] }),
    );
    return { arm_amis: { 'us-east-1': images.Images!.find((i) => i.ImageId?.startsWith('ami-'))!.ImageId! } };
  });
  ({ api, slug } = rig);
}, 600_000); // may wait for another file's VMs (Ec2Machines.open)

afterAll(async () => {
  await rig?.close();
});

describe('a container environment on vm_aws', () => {
  it('is checked on the server, runs Dask in the image on each VM as nobody, and is refused for machines of another architecture', async () => {
    const build = await buildOfContainer(api, slug, 'ec2-stack', BASE);
    expect(build.reason ?? '').toBe('');
    expect(build).toMatchObject({ state: 'built', backend_type: 'vm_aws' });
    const lockfile = await api.get(`/api/v2/software-environment/account/${slug}/build/${build.id}/lockfile`);
    expect(lockfile.text).toMatch(/^# cumulus lockfile: container \S+ \(\S+\), Python \S+ x86_64\n/);

    const clusters = `/api/v2/clusters/account/${slug}/`;
    const refused = await api.post(clusters, {
      name: 'on-graviton',
      workers: 1,
      env_name: 'ec2-stack',
      scheduler_instance_types: ['m7g.large'],
      worker_instance_types: ['m7g.large'],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.env_name).toEqual([
      `Software environment ec2-stack is the container image ${BASE}, built for x86_64, but this cluster's instance types are aarch64: choose instance types of x86_64, or an environment of an image for aarch64.`,
    ]);

    const created = await api.post(clusters, { name: 'ec2-contained', workers: 1, env_name: 'ec2-stack' });
    expect(created.status, created.text).toBe(201);
    await waitForClusterState(api, slug, created.body.id, 'ready', 180_000);
    const details = await waitFor('the addresses EC2 gave', async () => {
      const res = await api.get(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
      return res.body.scheduler?.instance?.public_ip_address && res.body;
    });
    const seen = await whereInImage(details);
    for (const where of [seen.scheduler, seen.worker])
      expect(where).toMatchObject({ image: BASE, uid: 65534 });
    expect(seen.sum).toBe(500500);

    expect((await api.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`)).status).toBe(200);
    await waitForClusterState(api, slug, created.body.id, 'stopped', 180_000);
  }, 600_000);

  it("a VM that cannot start the image says why: the instance in error with the start's own words", async () => {
    // Built from an image whose tag then moves to another: the VM refuses to run it, and phones that home.
    const moved = 'localhost/cumulus-test/moved:ec2';
    execFileSync('podman', ['tag', BASE, moved]);
    try {
      expect(await buildOfContainer(api, slug, 'ec2-moved', moved)).toMatchObject({ state: 'built' });
      execFileSync('podman', ['tag', 'localhost/cumulus-test/nodask:bookworm', moved]);
      const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
        name: 'ec2-moved',
        workers: 0,
        env_name: 'ec2-moved',
      });
      expect(created.status, created.text).toBe(201);
      const why = await waitFor(
        "the scheduler's instance in error, with why",
        async () => {
          const res = await api.get(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
          const instance = res.body.scheduler?.instance;
          const text = JSON.stringify(res.body);
          return text.includes('is not the image its environment was built from')
            ? (instance ?? res.body)
            : false;
        },
        180_000,
      );
      expect(JSON.stringify(why)).toContain(`${moved} is not the image its environment was built from`);
      await api.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
    } finally {
      execFileSync('podman', ['rmi', moved]);
    }
  }, 600_000);
});
