import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from './helpers/api.js';
import { setUpAwsWorkspace } from './helpers/aws-workspace.js';
import { startClusterServer } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';
import { awsEnvironment, type Moto, startMoto } from './helpers/moto.js';

/**
 * The plan's spot and ARM usage limits (tiers gate them), on a
 * workspace set up on vm_aws against moto's EC2: a cluster create or a scale-up that would run
 * more spot or ARM instances across the organization than the plan allows is refused with a 403
 * naming the limit; null is no limit, 0 allows none. No VM boots here: the refusals come before
 * any launch, and what is allowed only has to be counted.
 */
let moto: Moto;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let api: Api;
let staffApi: Api;
let slug: string;
let orgId: number;
let restoreEnv: (() => void) | undefined;

beforeAll(async () => {
  moto = await startMoto();
  // The SDK reads where AWS is itself.
  restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: moto.url });
  ts = await startClusterServer();
  const user = await createUser(ts);
  api = ts.api.as(user.key);
  staffApi = ts.api.as((await createUser(ts, { staff: true })).key);
  const me = (await api.get('/api/v2/user/me')).body;
  slug = me.default_account.slug;
  orgId = me.default_organization.id;
  // The workspace runs workers on spot unless a cluster says otherwise.
  await setUpAwsWorkspace(api, slug, moto.url, moto.keys, { spot: true });
}, 180_000);

afterAll(async () => {
  await ts?.close();
  await moto?.stop();
  restoreEnv?.();
});

const plan = async (limits: Record<string, number | null>) => {
  const res = await staffApi.patch(`/api/v2/pricing/update-staff/${orgId}`, limits);
  expect(res.status, res.text).toBe(200);
};
const create = (body: Record<string, unknown>) => api.post(`/api/v2/clusters/account/${slug}/`, body);
const scale = (id: number, n: number) =>
  api.post(`/api/v2/workers/account/${slug}/cluster/${id}/`, { n_workers: n });
const stop = (id: number) => api.delete(`/api/v2/clusters/account/${slug}/id/${id}`);
const ARM_WORKERS = { worker_instance_types: ['m6g.xlarge'], scheduler_instance_types: ['m6i.large'] };

describe('ARM usage limit', () => {
  it('refuses ARM instances past the limit on create and scale, counting only ARM machines', async () => {
    await plan({ arm_usage_limit: 0, spot_usage_limit: null });
    const none = await create({ name: 'arm-none', workers: 1, ...ARM_WORKERS });
    expect(none.status).toBe(403);
    expect(none.body).toMatchObject({ code: 'ARM_USAGE_LIMIT_REACHED', arm_usage_limit: 0 });
    expect(none.body.detail).toContain('its plan allows no ARM instances');
    // x86 machines are not ARM: a limit of 0 lets them run.
    const x86 = await create({
      name: 'x86',
      workers: 2,
      worker_instance_types: ['m6i.xlarge'],
      options: { spot: false },
    });
    expect(x86.status, x86.text).toBe(201);

    await plan({ arm_usage_limit: 3 });
    const arm = await create({ name: 'arm', workers: 2, ...ARM_WORKERS });
    expect(arm.status, arm.text).toBe(201);
    const over = await scale(arm.body.id, 2);
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ code: 'ARM_USAGE_LIMIT_REACHED', arm_usage_limit: 3 });
    expect(over.body.detail).toBe(
      `This would run 4 ARM instances in organization ${over.body.detail.match(/organization (\S+),/)[1]}, over its plan's ARM usage limit of 3 (2 running). Stop a cluster, choose other instances, or ask an organization admin to change the plan.`,
    );
    expect((await scale(arm.body.id, 1)).status).toBe(201);
    // Another ARM cluster would pass the 3 running now; an x86 one still starts.
    expect((await create({ name: 'arm-2', workers: 1, ...ARM_WORKERS })).status).toBe(403);
    const x86Scale = await scale(x86.body.id, 1);
    expect(x86Scale.status, x86Scale.text).toBe(201);

    // null is no limit.
    await plan({ arm_usage_limit: null });
    const free = await create({ name: 'arm-3', workers: 1, ...ARM_WORKERS });
    expect(free.status, free.text).toBe(201);
    for (const id of [x86.body.id, arm.body.id, free.body.id]) expect((await stop(id)).status).toBe(200);
  }, 120_000);
});

describe('spot usage limit', () => {
  it("refuses spot workers past the limit, whether the cluster asks for spot or the workspace's setting does", async () => {
    await plan({ spot_usage_limit: 1, arm_usage_limit: null });
    const two = await create({ name: 'spot-two', workers: 2, options: { spot: true } });
    expect(two.status).toBe(403);
    expect(two.body).toMatchObject({ code: 'SPOT_USAGE_LIMIT_REACHED', spot_usage_limit: 1 });
    expect(two.body.detail).toContain("over its plan's spot usage limit of 1 (0 running)");
    const one = await create({ name: 'spot-one', workers: 1, options: { spot: true } });
    expect(one.status, one.text).toBe(201);
    expect((await scale(one.body.id, 1)).body.detail).toContain('spot usage limit of 1 (1 running)');
    // On demand is not spot.
    const onDemand = await create({ name: 'on-demand', workers: 2, options: { spot: false } });
    expect(onDemand.status, onDemand.text).toBe(201);
    // The workspace runs spot by default: a cluster that does not say counts as spot.
    const byDefault = await create({ name: 'by-default', workers: 1 });
    expect(byDefault.status).toBe(403);
    expect(byDefault.body.code).toBe('SPOT_USAGE_LIMIT_REACHED');
    // Stopped clusters hold nothing.
    expect((await stop(one.body.id)).status).toBe(200);
    const after = await create({ name: 'by-default-2', workers: 1 });
    expect(after.status, after.text).toBe(201);
    await plan({ spot_usage_limit: 0 });
    const zero = await create({ name: 'spot-zero', workers: 1, options: { spot: true } });
    expect(zero.status).toBe(403);
    expect(zero.body.detail).toContain('its plan allows no spot instances');
    for (const id of [onDemand.body.id, after.body.id]) expect((await stop(id)).status).toBe(200);
  }, 120_000);
});
