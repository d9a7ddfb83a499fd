import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEc2Backend } from '../src/compute/aws/ec2-backend.js';
import type { Backend, InstanceRef, LaunchSpec } from '../src/compute/backend.js';
import type { ServiceAccountKey } from '../src/compute/gcp/auth.js';
import { createGceBackend } from '../src/compute/gcp/gce-backend.js';
import { createLocalBackend } from '../src/compute/local.js';
import { createSlurmBackend } from '../src/compute/slurm/slurm-backend.js';
import { createSshBackend, type SshPlacement } from '../src/compute/ssh/ssh-backend.js';
import { machineShapeOf } from '../src/compute/vm-types.js';
import { PYTHON, testSandbox, waitFor } from './helpers/clusters.js';
import { GceRig } from './helpers/gce-rig/rig.js';
import { awsEnvironment, startMoto } from './helpers/moto.js';
import { startSlurmRig } from './helpers/slurm.js';
import { RIG_LOCK_WAIT_MS, startSshRig } from './helpers/ssh-hosts.js';

/**
 * The contract every backend keeps (compute/backend.ts), one suite for all of them: a launch
 * repeated with the same backend id adopts what the first made; describe answers many instances in
 * one call, an unknown one `gone`; stop is idempotent and describe then confirms `gone`; releasing
 * a cluster twice finds nothing left the second time. A new backend joins by adding its maker here.
 */
interface Subject {
  backend: Backend;
  close(): Promise<void>;
}

/** The slurm backend on a rig of its own, submitting on this machine or through slurmrestd. */
async function slurmSubject(rest: boolean): Promise<Subject> {
  const rig = await startSlurmRig({ cores: 4, memoryMib: 4096, rest });
  const login = rest
    ? {
        mode: 'rest' as const,
        name: 'slurmrestd',
        url: rig.rest!.url,
        user: rig.rest!.user,
        token: rig.rest!.token(),
      }
    : { mode: 'local' as const, name: 'this machine' };
  const backend = createSlurmBackend({
    clusters: {
      clusterOf: async (workspaceId) => ({
        id: 1,
        workspaceId,
        name: 'contract-slurm',
        login,
        partition: rig.partition,
        account: null,
        qos: null,
        timeLimitMinutes: null,
        nodeCores: rig.cores,
        nodeGpus: 0,
        nodeMemoryMib: rig.memoryMib,
        python: PYTHON,
      }),
    },
  });
  return { backend, close: () => rig.close() };
}

const makers: Record<string, () => Promise<Subject>> = {
  async in_process() {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cumulus-contract-'));
    const backend = createLocalBackend({
      python: PYTHON,
      dataDir,
      baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stopGraceMs: 2_000,
      sandbox: testSandbox(dataDir),
    });
    return { backend, close: async () => rmSync(dataDir, { recursive: true, force: true }) };
  },
  async vm_aws() {
    const moto = await startMoto();
    const restore = awsEnvironment({ AWS_ENDPOINT_URL: moto.url });
    const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
    const image = (await ec2.send(new DescribeImagesCommand({}))).Images?.find((i) =>
      i.ImageId?.startsWith('ami-'),
    )?.ImageId;
    const backend = createEc2Backend({
      aws: {},
      shapeOf: machineShapeOf,
      placementOf: async () => ({
        secret: {
          kind: 'keys' as const,
          accessKeyId: moto.keys.accessKeyId,
          secretAccessKey: moto.keys.secretAccessKey,
        },
        region: 'us-east-1',
        subnetIds: [],
        securityGroupId: null,
        instanceProfileArn: null,
        settings: {
          worker_instance_types: ['m6i.large'],
          scheduler_instance_types: ['m6i.large'],
          spot: false,
          spot_on_demand_fallback: false,
          disk_size_gib: 20,
          amis: { 'us-east-1': image },
        },
      }),
    });
    return {
      backend,
      async close() {
        restore();
        await moto.stop();
      },
    };
  },
  async vm_gcp() {
    // The server's own wiring (server.ts) pointed at the rig: its token endpoint and Compute API.
    const rig = await new GceRig().start();
    const key = rig.tokens.createKey('cumulus') as unknown as ServiceAccountKey;
    const env = rig.env();
    const backend = createGceBackend({
      computeUrl: env.CUMULUS_GCP_COMPUTE_URL!,
      tokenUrl: env.CUMULUS_GCP_TOKEN_URL!,
      metadataUrl: env.CUMULUS_GCP_METADATA_URL!,
      images: {
        x86_64: 'projects/debian-cloud/global/images/family/debian-12',
        arm64: 'projects/debian-cloud/global/images/family/debian-12-arm64',
        gpu: 'projects/deeplearning-platform-release/global/images/family/common-cu124-debian-11-py310',
      },
      shapeOf: machineShapeOf,
      placementOf: async () => ({
        credential: { kind: 'key', key },
        project: rig.project,
        region: 'us-central1',
        network: 'default',
        subnet: 'default',
        targetTags: ['dask'],
        settings: {
          worker_instance_types: ['e2-standard-2'],
          scheduler_instance_types: ['e2-standard-2'],
          spot: false,
          spot_on_demand_fallback: false,
          disk_size_gib: 20,
        },
      }),
    });
    return { backend, close: () => rig.stop() };
  },
  async ssh() {
    const rig = await startSshRig(1);
    const [rigHost] = rig.hosts;
    const host = {
      id: 1,
      workspaceId: 1,
      name: 'contract-host',
      address: rigHost!.address,
      port: rigHost!.port,
      user: rig.user,
      privateKey: rig.privateKey,
      hostKey: rigHost!.hostKey,
      cores: 4,
      memoryMib: 8192,
      gpus: 0,
      labels: [],
      python: PYTHON,
    };
    // The registry's part (domains/cloud/ssh-hosts) kept in memory: the contract is the backend's.
    const placed = new Map<string, SshPlacement>();
    const backend = createSshBackend({
      lostAfterMs: 60_000,
      stopGraceMs: 2_000,
      hosts: {
        healthyHosts: async () => [host],
        host: async (_workspaceId, id) => (id === host.id ? host : null),
        placementOf: async (backendId) => placed.get(backendId) ?? null,
        placeOnOneOf: async (_hostIds, choose) => {
          const placement = choose([...placed.values()]);
          placed.set(placement.backendId, placement);
          return placement;
        },
        unplace: async (backendId) => void placed.delete(backendId),
      },
    });
    return { backend, close: () => rig.close() };
  },
  slurm: () => slurmSubject(false),
  'slurm (slurmrestd)': () => slurmSubject(true),
};

let serial = 0;
function specOf(clusterId: number, role: 'scheduler' | 'worker'): LaunchSpec {
  serial++;
  return {
    instanceId: serial,
    backendId: `contract-${process.pid}-${Date.now().toString(36)}-${serial}`,
    role,
    name: `contract-${clusterId}-${role}-${serial}`,
    clusterId,
    workspaceId: 1,
    instanceTypes: [],
    clusterToken: 'not-a-real-token',
    // Nothing answers here: a local agent keeps trying, as during an outage of the control plane.
    serverUrl: 'http://127.0.0.1:9',
    unreachableTimeoutMs: 600_000,
  };
}

describe.each(Object.keys(makers))('the %s backend', (type) => {
  let subject: Subject;
  beforeAll(async () => {
    // The SSH rig waits for any other on this machine to close (RIG_LOCK_WAIT_MS at most).
    subject = await makers[type]!();
  }, RIG_LOCK_WAIT_MS + 120_000);
  afterAll(async () => {
    await subject?.close();
  });

  it('says what it is and sizes machines', () => {
    const { backend } = subject;
    // `slurm (slurmrestd)`: the slurm backend submitting through slurmrestd.
    expect(backend.type).toBe(type.split(' ')[0]);
    expect(backend.describeSelf().backend).toBe(type.split(' ')[0]);
    const shape = backend.machineFor([]);
    expect(shape.cores).toBeGreaterThan(0);
    expect(shape.memoryMib).toBeGreaterThan(0);
  });

  it('adopts a repeated launch, describes many at once, stops idempotently, releases twice', async () => {
    const { backend } = subject;
    const clusterId = 9000 + serial;
    const specs = [specOf(clusterId, 'scheduler'), specOf(clusterId, 'worker')];
    const refs: InstanceRef[] = [];
    for (const spec of specs)
      refs.push({ backendId: spec.backendId, backendData: await backend.launch(spec) });
    // The same backend id again (a server that crashed before recording the answer): the same machine.
    const again = await backend.launch(specs[0]!);
    expect(again.adopted).toBe(true);
    const unknown: InstanceRef = { backendId: `contract-unknown-${serial}`, backendData: null };
    await waitFor(`both ${type} instances running`, async () => {
      const seen = await backend.describe([...refs, unknown]);
      expect(seen.get(unknown.backendId)?.state).toBe('gone');
      return refs.every((r) => seen.get(r.backendId)?.state === 'running');
    });
    for (const ref of refs) {
      await backend.stop(ref);
      await backend.stop(ref);
    }
    await waitFor(`both ${type} instances gone`, async () => {
      const seen = await backend.describe(refs);
      return refs.every((r) => seen.get(r.backendId)?.state === 'gone');
    });
    await backend.releaseCluster?.({ clusterId, workspaceId: 1 });
    await backend.releaseCluster?.({ clusterId, workspaceId: 1 });
  }, 120_000);
});
