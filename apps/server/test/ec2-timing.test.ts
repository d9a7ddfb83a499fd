import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instances, stateHistory } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { setUpAwsWorkspace } from './helpers/aws-workspace.js';
import { startClusterServer, waitForClusterState } from './helpers/clusters.js';
import { Ec2Machines } from './helpers/ec2-vms.js';
import { createUser } from './helpers/factories.js';
import { awsEnvironment, type Ec2Proxy, type Moto, startEc2Proxy, startMoto } from './helpers/moto.js';

/**
 * EC2's real timing, which moto does not have, played by the tests' EC2 proxy: a VM stays
 * `pending` for a while before it boots, and DescribeInstances does not know a fresh instance at
 * first (eventual consistency). Neither may fail a healthy instance.
 */
const PENDING_MS = 25_000;
const UNKNOWN_MS = 8_000;
let moto: Moto;
let proxy: Ec2Proxy;
let machines: Ec2Machines;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let api: Api;
let slug: string;
let workspaceId: number;
let restoreEnv: () => void;

beforeAll(async () => {
  moto = await startMoto();
  proxy = await startEc2Proxy(moto.url);
  restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: proxy.url });
  // The VMs boot once the proxy says they run.
  machines = await Ec2Machines.open(proxy.url, moto.keys);
  // Silence is failed after 15 s: less than a VM here takes to leave `pending`.
  ts = await startClusterServer({ CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '15' });
  api = ts.api.as((await createUser(ts)).key);
  const me = (await api.get('/api/v2/user/me')).body.default_account;
  slug = me.slug;
  workspaceId = me.id;
  await setUpAwsWorkspace(api, slug, moto.url, moto.keys);
}, 600_000); // may wait for another file's VMs (Ec2Machines.open)

afterAll(async () => {
  await ts?.close();
  await machines?.stop();
  await proxy?.close();
  await moto?.stop();
  restoreEnv?.();
});

describe('EC2 timing', () => {
  it('a VM unknown to DescribeInstances at first, then pending longer than the heartbeat timeout, still starts', async () => {
    proxy.pendingMs = PENDING_MS;
    proxy.unknownMs = UNKNOWN_MS;
    const started = Date.now();
    const created = await api.post(`/api/v2/clusters/account/${slug}/`, { name: 'slow-boot', workers: 1 });
    expect(created.status).toBe(201);
    await waitForClusterState(api, slug, created.body.id, 'ready', 240_000);
    expect(Date.now() - started).toBeGreaterThan(PENDING_MS);

    const rows = await ts.server.deps.db
      .select()
      .from(instances)
      .where(eq(instances.clusterId, created.body.id));
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.state).toBe('ready');
      // Its first heartbeat was due from when EC2 said it runs, not from the launch.
      expect(r.runningAt!.getTime() - r.launchedAt!.getTime()).toBeGreaterThan(PENDING_MS - 5_000);
    }
    const history = await ts.server.deps.db
      .select()
      .from(stateHistory)
      .where(eq(stateHistory.clusterId, created.body.id));
    expect(history.filter((h) => h.state === 'error')).toEqual([]);
    await api.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
    await waitForClusterState(api, slug, created.body.id, 'stopped', 120_000);
  }, 300_000);

  it('an instance EC2 does not know is pending just after its launch, and gone once the grace has passed', async () => {
    const backend = await ts.server.deps.backends.forCluster({ backendType: 'vm_aws', workspaceId });
    const ref = (agoMs: number) => ({
      backendId: `never-launched-${agoMs}`,
      backendData: {
        instanceId: 'i-0123456789abcdef0',
        workspaceId,
        region: 'us-east-1',
        launchedAt: new Date(Date.now() - agoMs).toISOString(),
      },
    });
    const fresh = ref(0);
    const old = ref(60 * 60_000);
    const seen = await backend.describe([fresh, old]);
    expect(seen.get(fresh.backendId)).toEqual({ state: 'pending' });
    expect(seen.get(old.backendId)).toMatchObject({
      state: 'gone',
      reason: 'EC2 does not know instance i-0123456789abcdef0',
    });
  });

  it('launches more machines at once than run RunInstances together, looking for earlier launches of all of them once', async () => {
    // They stay pending: the VM helper leaves them alone.
    proxy.pendingMs = 600_000;
    proxy.unknownMs = 0;
    const backend = await ts.server.deps.backends.forCluster({ backendType: 'vm_aws', workspaceId });
    const specs = Array.from({ length: 40 }, (_, i) => ({
      instanceId: 1_000_000 + i,
      backendId: `many-${Date.now()}-${i}`,
      role: 'worker' as const,
      name: `many-${i}`,
      clusterId: 1_000_000,
      workspaceId,
      instanceTypes: ['m6i.xlarge'],
      clusterToken: 'unused',
      serverUrl: ts.url,
      unreachableTimeoutMs: 1_000,
    }));
    proxy.resetCalls();
    const launched = await Promise.all(specs.map((spec) => backend.launch(spec)));
    expect(new Set(launched.map((d) => d.instanceId)).size).toBe(40);
    expect(proxy.calls.get('RunInstances')).toBe(40);
    expect(proxy.calls.get('DescribeInstances')).toBeLessThanOrEqual(2);
    await Promise.all(
      launched.map((backendData, i) => backend.stop({ backendId: specs[i]!.backendId, backendData })),
    );
  }, 60_000);
});
