import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { InstancesClient, type protos, ZoneOperationsClient, ZonesClient } from '@google-cloud/compute';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInstanceProcesses } from '../src/compute/local-processes.js';
import { GceMachines } from './helpers/gce-rig/machines.js';
import { GceRig } from './helpers/gce-rig/rig.js';
import { waitFor } from './helpers/wait.js';

/**
 * The GCE rig held to two clients of Compute Engine: `gcloud` (strict: it reads operations,
 * errors and resource links as Google writes them) and `@google-cloud/compute` over REST. An
 * instance's startup script runs here as the VM would and reads the VM's metadata server.
 */
const run = promisify(execFile);
let rig: GceRig;
let machines: GceMachines;
let gcloudConfig: string;
const out = mkdtempSync(path.join(tmpdir(), 'cumulus-gce-rig-test-'));

async function gcloud(...args: string[]): Promise<string> {
  const { stdout } = await run('gcloud', args, {
    env: {
      PATH: process.env.PATH,
      CLOUDSDK_CONFIG: gcloudConfig,
      CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${rig.url}/compute/v1/`,
      CLOUDSDK_AUTH_ACCESS_TOKEN: rig.tokens.issue(),
      CLOUDSDK_CORE_PROJECT: rig.project,
      CLOUDSDK_CORE_DISABLE_PROMPTS: '1',
      CLOUDSDK_CORE_CHECK_GCE_METADATA: 'false',
      CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK: '1',
    },
  });
  return stdout;
}

function nodeOptions() {
  const url = new URL(rig.url);
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: rig.tokens.issue() });
  return { apiEndpoint: url.hostname, port: Number(url.port), protocol: 'http', fallback: true, authClient };
}

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

  it('serves @google-cloud/compute over REST: zones, insert, wait, get, aggregated list by label, delete', async () => {
    const options = nodeOptions();
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

  it('refuses what Compute Engine refuses: unknown fields, wrong types, unknown query parameters, bad tokens, a type of another architecture', async () => {
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
