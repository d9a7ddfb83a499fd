import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InstancesClient, type protos, ZoneOperationsClient, ZonesClient } from '@google-cloud/compute';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInstanceProcesses } from '../src/compute/local-processes.js';
import { gcloudOf, gcloudRunOf, nodeOptions } from './helpers/gce-rig/clients.js';
import { GceMachines } from './helpers/gce-rig/machines.js';
import { GceRig } from './helpers/gce-rig/rig.js';
import { waitFor } from './helpers/wait.js';

/**
 * The GCE rig held to two clients of Compute Engine: `gcloud` (strict: it reads operations,
 * errors and resource links as Google writes them) and `@google-cloud/compute` over REST. An
 * instance's startup script runs here as the VM would and reads the VM's metadata server.
 */
let rig: GceRig;
let machines: GceMachines;
let gcloudConfig: string;
const out = mkdtempSync(path.join(tmpdir(), 'cumulus-gce-rig-test-'));

let gcloud: ReturnType<typeof gcloudOf>;

/** A startup script that, as the VM, reads its metadata server into a file and stays up. */
function startupScript(backendId: string): string {
  return `export CUMULUS_BACKEND_ID=${backendId}
H='Metadata-Flavor: Google'
M="$CUMULUS_METADATA_URL/computeMetadata/v1/instance"
{ curl -sf -H "$H" "$M/attributes/cumulus-note"; echo; curl -sf -H "$H" "$M/preempted"; echo;
  curl -sf -H "$H" "$M/service-accounts/default/token"; echo; curl -s -o /dev/null -w '%{http_code}' "$M/preempted"; echo;
  echo "$CUMULUS_AGENT_HOST"; } > ${out}/${backendId}.txt
exec sleep 300`;
}

beforeAll(async () => {
  gcloudConfig = mkdtempSync(path.join(tmpdir(), 'cumulus-gcloud-'));
  rig = await new GceRig().start();
  machines = await new GceMachines(rig).start();
  gcloud = gcloudOf(rig, gcloudConfig);
});

afterAll(async () => {
  await machines?.stop();
  await rig?.stop();
  rmSync(gcloudConfig, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

// gcloud takes seconds a command on this shared machine.
describe('the GCE rig', { timeout: 120_000 }, () => {
  it('serves gcloud: zones listed, an instance created, booted with its metadata, deleted', async () => {
    const zones = JSON.parse(await gcloud('compute', 'zones', 'list', '--format=json')) as {
      name: string;
      region: string;
    }[];
    expect(zones.map((z) => z.name)).toContain('us-central1-a');
    expect(zones[0]!.region).toBe(`${rig.url}/compute/v1/projects/${rig.project}/regions/us-central1`);

    const created = JSON.parse(
      await gcloud(
        'compute',
        'instances',
        'create',
        'vm-gcloud',
        '--zone=us-central1-b',
        '--machine-type=n2-standard-4',
        '--image-family=debian-12',
        '--image-project=debian-cloud',
        '--provisioning-model=SPOT',
        '--labels=cumulus-backend-id=gcloud-vm',
        `--metadata=cumulus-note=hello,startup-script=${startupScript('gcloud-vm')}`,
        '--format=json',
      ),
    ) as {
      status: string;
      networkInterfaces: { networkIP: string }[];
      scheduling: { provisioningModel: string };
    }[];
    expect(created[0]!.status).toBe('RUNNING');
    expect(created[0]!.scheduling.provisioningModel).toBe('SPOT');
    const ip = created[0]!.networkInterfaces[0]!.networkIP;

    const seen = await waitFor(
      'the VM to read its metadata',
      async () => {
        const lines = readFileSync(path.join(out, 'gcloud-vm.txt'), 'utf8').trim().split('\n');
        return lines.length >= 5 && lines;
      },
      20_000,
    );
    expect(seen[0]).toBe('hello');
    expect(seen[1]).toBe('FALSE');
    expect(JSON.parse(seen[2]!).access_token).toMatch(/^ya29\./);
    // Without Metadata-Flavor the metadata server refuses, as Google's does.
    expect(seen[3]).toBe('403');
    expect(seen[4]).toBe(ip);
    expect(await findInstanceProcesses('gcloud-vm')).not.toHaveLength(0);

    const listed = await gcloud(
      'compute',
      'instances',
      'list',
      '--filter=labels.cumulus-backend-id=gcloud-vm',
      '--format=value(name)',
    );
    expect(listed.trim()).toBe('vm-gcloud');
    await gcloud('compute', 'instances', 'delete', 'vm-gcloud', '--zone=us-central1-b');
    expect((await gcloud('compute', 'instances', 'list', '--format=value(name)')).trim()).toBe('');
    await waitFor(
      'the VM to go',
      async () => (await findInstanceProcesses('gcloud-vm')).length === 0,
      10_000,
    );
    expect(rig.calls).toEqual(
      expect.arrayContaining([
        'Zones.List',
        'Instances.Insert',
        'ZoneOperations.Wait',
        'Instances.AggregatedList',
        'Instances.Delete',
      ]),
    );
  });

  it('serves gcloud GPUs: refused where Google refuses them (zone, live migration, count), attached and described otherwise', async () => {
    const create = (zone: string, ...more: string[]) =>
      gcloud(
        'compute',
        'instances',
        'create',
        'vm-gpu',
        `--zone=${zone}`,
        '--machine-type=n1-standard-4',
        '--image-family=debian-12',
        '--image-project=debian-cloud',
        '--format=json',
        ...more,
      );
    const refusal = (work: Promise<unknown>) =>
      work.then(
        () => 'created',
        (err: { stderr?: string }) => String(err.stderr),
      );
    // T4s are in two of us-east1's three zones.
    expect(
      await refusal(
        create('us-east1-b', '--accelerator=type=nvidia-tesla-t4,count=1', '--maintenance-policy=TERMINATE'),
      ),
    ).toContain(
      `The resource 'projects/${rig.project}/zones/us-east1-b/acceleratorTypes/nvidia-tesla-t4' was not found`,
    );
    expect(await refusal(create('us-east1-c', '--accelerator=type=nvidia-tesla-t4,count=1'))).toContain(
      'Instances with guest accelerators do not support live migration.',
    );
    expect(
      await refusal(
        create('us-east1-c', '--accelerator=type=nvidia-tesla-t4,count=3', '--maintenance-policy=TERMINATE'),
      ),
    ).toContain("Invalid value for field 'resource.guestAccelerators[0].acceleratorCount': '3'.");
    expect(rig.instances.all()).toHaveLength(0);

    await create(
      'us-east1-c',
      '--accelerator=type=nvidia-tesla-t4,count=2',
      '--maintenance-policy=TERMINATE',
    );
    const described = JSON.parse(
      await gcloud('compute', 'instances', 'describe', 'vm-gpu', '--zone=us-east1-c', '--format=json'),
    ) as { guestAccelerators: unknown[]; scheduling: { onHostMaintenance: string } };
    expect(described.guestAccelerators).toEqual([
      {
        acceleratorCount: 2,
        acceleratorType: `${rig.url}/compute/v1/projects/${rig.project}/zones/us-east1-c/acceleratorTypes/nvidia-tesla-t4`,
      },
    ]);
    expect(described.scheduling.onHostMaintenance).toBe('TERMINATE');
    const t4 = JSON.parse(
      await gcloud(
        'compute',
        'accelerator-types',
        'describe',
        'nvidia-tesla-t4',
        '--zone=us-east1-c',
        '--format=json',
      ),
    ) as { maximumCardsPerInstance: number };
    expect(t4.maximumCardsPerInstance).toBe(4);
    await gcloud('compute', 'instances', 'delete', 'vm-gpu', '--zone=us-east1-c');
    expect(rig.instances.all()).toHaveLength(0);
  });

  it('serves gcloud firewall rules: created, read back, deleted', async () => {
    await gcloud(
      'compute',
      'firewall-rules',
      'create',
      'cumulus-test',
      '--allow=tcp:8786-8787',
      '--source-ranges=203.0.113.0/24',
      '--target-tags=cumulus-cluster-1',
    );
    const rule = JSON.parse(
      await gcloud('compute', 'firewall-rules', 'describe', 'cumulus-test', '--format=json'),
    ) as Record<string, unknown>;
    expect(rule.allowed).toEqual([{ IPProtocol: 'tcp', ports: ['8786-8787'] }]);
    expect(rule.targetTags).toEqual(['cumulus-cluster-1']);
    await gcloud('compute', 'firewall-rules', 'delete', 'cumulus-test');
    expect(rig.firewalls.rules.size).toBe(0);
  });

  it('refuses a call whose caller lacks a permission it needs, naming it as Google does, to both clients', async () => {
    const tester = `tester@${rig.project}.iam.gserviceaccount.com`;
    rig.resourceManager.withhold(['compute.instances.list'], tester);
    try {
      // gcloud lists what it can and says what was refused (an aggregated list is many requests to it).
      const refused = await gcloudRunOf(rig, gcloudConfig)(
        'compute',
        'instances',
        'list',
        '--format=json',
      ).then(
        (done) => done.stderr,
        (err: { stderr?: string }) => err.stderr ?? '',
      );
      expect(refused).toContain(`Required 'compute.instances.list' permission for 'projects/${rig.project}'`);
    } finally {
      rig.resourceManager.restore();
    }
    expect(JSON.parse(await gcloud('compute', 'instances', 'list', '--format=json'))).toEqual([]);

    // An insert needs one permission per part it sets: labels withheld, an instance with labels is refused.
    rig.resourceManager.withhold(['compute.instances.setLabels'], tester);
    try {
      const instances = new InstancesClient(nodeOptions(rig));
      const resource = {
        name: 'vm-labelled',
        machineType: 'zones/us-central1-a/machineTypes/e2-standard-2',
        disks: [
          {
            boot: true,
            autoDelete: true,
            initializeParams: { sourceImage: 'projects/debian-cloud/global/images/family/debian-12' },
          },
        ],
        networkInterfaces: [{ network: 'global/networks/default' }],
        labels: { team: 'a' },
      };
      await expect(
        instances.insert({ project: rig.project, zone: 'us-central1-a', instanceResource: resource }),
      ).rejects.toMatchObject({
        code: 403,
        message: expect.stringContaining(
          `Required 'compute.instances.setLabels' permission for 'projects/${rig.project}/zones/us-central1-a/instances'`,
        ),
      });
      expect(rig.instances.all()).toHaveLength(0);
      await instances.close();
    } finally {
      rig.resourceManager.restore();
    }
  });

  it('serves @google-cloud/compute over REST: zones, insert, wait, get, aggregated list by label, delete', async () => {
    const options = nodeOptions(rig);
    const [zones] = await new ZonesClient(options).list({ project: rig.project });
    expect(zones.map((z) => z.name)).toContain('europe-west1-b');
    const instances = new InstancesClient(options);
    const operations = new ZoneOperationsClient(options);
    const zone = 'us-central1-a';
    const finish = async (op: { latestResponse: unknown }) => {
      let o = op.latestResponse as protos.google.cloud.compute.v1.IOperation;
      while (o.status !== 'DONE')
        [o] = await operations.wait({ project: rig.project, zone, operation: o.name! });
      return o;
    };
    const [insert] = await instances.insert({
      project: rig.project,
      zone,
      instanceResource: {
        name: 'vm-node',
        machineType: `zones/${zone}/machineTypes/e2-standard-2`,
        disks: [
          {
            boot: true,
            autoDelete: true,
            initializeParams: { sourceImage: 'projects/debian-cloud/global/images/family/debian-12' },
          },
        ],
        networkInterfaces: [{ network: 'global/networks/default' }],
        labels: { 'cumulus-backend-id': 'node-vm' },
        metadata: { items: [{ key: 'startup-script', value: startupScript('node-vm') }] },
      },
    });
    expect((await finish(insert)).error).toBeFalsy();
    const [got] = await instances.get({ project: rig.project, zone, instance: 'vm-node' });
    expect(got.status).toBe('RUNNING');
    const found: string[] = [];
    for await (const [, scoped] of instances.aggregatedListAsync({
      project: rig.project,
      filter: 'labels.cumulus-backend-id = "node-vm"',
    }))
      found.push(...(scoped.instances ?? []).map((i) => i.name!));
    expect(found).toEqual(['vm-node']);
    await waitFor('the VM to boot', async () => (await findInstanceProcesses('node-vm')).length > 0, 20_000);
    const [remove] = await instances.delete({ project: rig.project, zone, instance: 'vm-node' });
    await finish(remove);
    await expect(instances.get({ project: rig.project, zone, instance: 'vm-node' })).rejects.toMatchObject({
      code: 404,
    });
    await waitFor('the VM to go', async () => (await findInstanceProcesses('node-vm')).length === 0, 10_000);
  });

  it('refuses what Compute Engine refuses: unknown fields, wrong types, unknown query parameters, bad tokens, a type of another architecture, GPUs a type does not take', async () => {
    const token = rig.tokens.issue();
    const post = (body: unknown, query = '', auth = `Bearer ${token}`) =>
      fetch(`${rig.url}/compute/v1/projects/${rig.project}/zones/us-central1-a/instances${query}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: { message: string } } }));
    const base = {
      name: 'vm-bad',
      machineType: 'zones/us-central1-a/machineTypes/t2a-standard-4',
      disks: [
        {
          boot: true,
          initializeParams: { sourceImage: 'projects/debian-cloud/global/images/family/debian-12' },
        },
      ],
      networkInterfaces: [{}],
    };
    expect(await post({ ...base, machine_kind: 'x' })).toMatchObject({
      status: 400,
      body: {
        error: {
          message: `Invalid JSON payload received. Unknown name "machine_kind" at 'instance_resource': Cannot find field.`,
        },
      },
    });
    expect(await post({ ...base, canIpForward: 'yes' })).toMatchObject({
      status: 400,
      body: { error: { message: `Invalid value at 'instance_resource.can_ip_forward' (TYPE_BOOL), "yes"` } },
    });
    expect((await post(base, '?zoneName=x')).status).toBe(400);
    expect((await post(base, '', 'Bearer nope')).status).toBe(401);
    expect(await post(base)).toMatchObject({
      status: 400,
      body: {
        error: {
          message:
            "Invalid resource usage: 'Requested boot disk architecture (X86_64) is not compatible with machine type architecture (ARM64).'",
        },
      },
    });
    // GPUs: none on a type that takes none, a G2's own L4s only, an A2 its own count.
    const t4 = [
      { acceleratorType: 'zones/us-central1-a/acceleratorTypes/nvidia-tesla-t4', acceleratorCount: 1 },
    ];
    const gpuVm = (type: string, guestAccelerators: unknown[]) => ({
      ...base,
      machineType: `zones/us-central1-a/machineTypes/${type}`,
      guestAccelerators,
      scheduling: { onHostMaintenance: 'TERMINATE' },
    });
    for (const type of ['e2-standard-4', 'g2-standard-4'])
      expect(await post(gpuVm(type, t4))).toMatchObject({
        status: 400,
        body: {
          error: { message: `[nvidia-tesla-t4, ${type}] features are not compatible for creating instance.` },
        },
      });
    const a100 = [
      { acceleratorType: 'zones/us-central1-a/acceleratorTypes/nvidia-tesla-a100', acceleratorCount: 2 },
    ];
    expect((await post(gpuVm('a2-highgpu-1g', a100))).body.error.message).toMatch(
      /^Invalid value for field 'resource.guestAccelerators\[0\].acceleratorCount': '2'\./,
    );
    // A G2 brings its GPUs: it too must stop for host maintenance.
    expect(
      await post({ ...base, machineType: 'zones/us-central1-a/machineTypes/g2-standard-4' }),
    ).toMatchObject({
      status: 400,
      body: { error: { message: 'Instances with guest accelerators do not support live migration.' } },
    });
    // Firewall rules: IPv4 CIDRs, ports of TCP, UDP or SCTP in range.
    const rule = (extra: Record<string, unknown>) =>
      fetch(`${rig.url}/compute/v1/projects/${rig.project}/global/firewalls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'fw-bad', allowed: [{ IPProtocol: 'tcp', ports: ['8786'] }], ...extra }),
      }).then(async (r) => ({
        status: r.status,
        message: ((await r.json()) as { error: { message: string } }).error.message,
      }));
    expect(await rule({ sourceRanges: ['203.0.113.0/33'] })).toEqual({
      status: 400,
      message:
        "Invalid value for field 'resource.sourceRanges[0]': '203.0.113.0/33'. Must be a CIDR address range that is contained in the network.",
    });
    expect((await rule({ allowed: [{ IPProtocol: 'tcp', ports: ['70000'] }] })).message).toMatch(
      /^Invalid value for field 'resource.allowed\[0\].ports\[0\]': '70000'\./,
    );
    expect((await rule({ allowed: [{ IPProtocol: 'icmp', ports: ['1'] }] })).status).toBe(400);
    expect(rig.firewalls.rules.size).toBe(0);
    const unplayed = await fetch(
      `${rig.url}/compute/v1/projects/${rig.project}/zones/us-central1-a/instances/x/start`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(unplayed.status).toBe(501);
    expect(rig.instances.all()).toHaveLength(0);
  });
});
