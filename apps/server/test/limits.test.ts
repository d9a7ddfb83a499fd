import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { usageMinutes, workspaceMemberships, workspaces } from '../src/db/schema/index.js';
import { rollUp } from '../src/domains/billing/usage/meter.js';
import { useClusterServer, waitFor } from './helpers/clusters.js';
import { createUser } from './helpers/factories.js';

/**
 * Limits that act, on real clusters: metering counts in 1 s "minutes" here, so limits are reached
 * within seconds. Where a limit is far above what a short run uses, the month's earlier usage is
 * written first (as metering would have, for an instance long gone), so that the real cluster's
 * own minutes cross it. A running cluster is stopped with the limit named and the limits loop's
 * billing event; new clusters are refused; usage of last month does not count.
 */
const c = useClusterServer({ CUMULUS_METER_MINUTE_SECONDS: '1' });

/** A fresh user with a personal organization and workspace of their own (limits are per organization). */
async function owner() {
  const user = await createUser(c.ts);
  const api = c.ts.api.as(user.key);
  const me = (await api.get('/api/v2/user/me')).body;
  return {
    user,
    api,
    slug: me.default_account.slug as string,
    workspaceId: me.default_account.id as number,
    orgId: me.default_organization.id as number,
  };
}
type Owner = Awaited<ReturnType<typeof owner>>;

let seeded = 0;
/**
 * Usage already metered in the owner's workspace at `at` (an instance that ran then), rolled up as
 * the meter does.
 */
async function usedBefore(o: Owner, at: Date, micro: { credits: number; cost: number }) {
  const { db } = c.ts.server.deps;
  const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  await db.insert(usageMinutes).values({
    minute,
    instanceId: 900_000_000 + seeded++,
    clusterId: 900_000_000,
    clusterName: 'earlier',
    workspaceId: o.workspaceId,
    organizationId: o.orgId,
    userId: o.user.id,
    clusterType: 'standard',
    backendType: 'in_process',
    instanceType: 'local',
    cores: 1,
    memoryMib: 1024,
    microCredits: micro.credits,
    microCloudCost: 0,
    microCumulusCost: micro.cost,
  });
  await rollUp(db, minute, new Date(minute.getTime() + 60_000));
}
const monthStart = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
};

const clusters = (o: Owner) => `/api/v2/clusters/account/${o.slug}/`;
const details = async (o: Owner, id: number) => (await o.api.get(`${clusters(o)}id/${id}`)).body;
const waitForStopped = (o: Owner, id: number) =>
  waitFor(
    'the cluster stopped by the limit',
    async () => {
      const d = await details(o, id);
      return d.current_state.state === 'stopped' ? d : undefined;
    },
    150_000,
    500,
  );
const RENEWS = /; limits reset on \d{4}-\d\d-01\.$/;

describe('credit limits', () => {
  it("stops a workspace's clusters at its monthly credit limit and refuses new ones", async () => {
    const { db } = c.ts.server.deps;
    await db.update(workspaces).set({ creditLimit: 1 }).where(eq(workspaces.slug, c.slug));
    const created = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, { name: 'greedy', workers: 2 });
    expect(created.status).toBe(201);
    // No wait for ready: on a loaded machine the limit (a few seconds of 1 s minutes) may stop the
    // cluster while it still starts; what matters is that its instances ran and it is stopped.
    const stopped = await waitFor(
      'the cluster stopped by the limit',
      async () => {
        const d = (await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${created.body.id}`)).body;
        return d.current_state.state === 'stopped' ? d : undefined;
      },
      150_000,
      500,
    );
    expect(stopped.current_state.reason).toMatch(
      /reached its monthly credit limit \(1 credits\); limits reset on \d{4}-\d\d-01/,
    );
    expect(await db.$count(usageMinutes)).toBeGreaterThan(0);

    const refused = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, { name: 'again', workers: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('CREDIT_LIMIT_REACHED');
    expect(refused.body.detail).toMatch(
      /^New clusters are refused: workspace \S+ reached its monthly credit limit \(1 credits\)/,
    );

    const today = new Date().toISOString().slice(0, 10);
    const usage = await c.api.get('/api/v2/usage/', { query: { unit: 'credits', start: today, end: today } });
    expect(usage.body.total).toBeGreaterThanOrEqual(1);
    const mine = (await c.api.get(`/api/v2/user/account/${c.slug}/usage`)).body;
    expect(mine).toMatchObject({ has_quota: false, workspace_credit_limit: 1 });
    expect(mine.workspace_credits_used).toBeGreaterThanOrEqual(1);
    expect(mine.credits_used).toBe(mine.workspace_credits_used);
  }, 240_000);

  it('allows nothing under a member credit limit of 0', async () => {
    const { db } = c.ts.server.deps;
    await db.update(workspaces).set({ creditLimit: null }).where(eq(workspaces.slug, c.slug));
    const me = (await c.api.get('/api/v2/user/me')).body;
    await db
      .update(workspaceMemberships)
      .set({ creditLimit: 0 })
      .where(eq(workspaceMemberships.userId, me.id));
    const refused = await c.api.post(`/api/v2/clusters/account/${c.slug}/`, { name: 'none', workers: 0 });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('reached their monthly credit limit');
  });

  it('allows nothing under a workspace or an organization credit limit of 0, and again at null', async () => {
    const o = await owner();
    const zero = await o.api.patch(`/api/v2/users/workspaces/details/${o.workspaceId}`, { credit_limit: 0 });
    expect(zero.status).toBe(200);
    const refused = await o.api.post(clusters(o), { name: 'none', workers: 0 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'CREDIT_LIMIT_REACHED', limit: 'workspace' });
    expect(refused.body.detail).toContain('reached its monthly credit limit (0 credits)');
    expect((await o.api.get(`/api/v2/pricing/workspace/${o.workspaceId}/usage`)).body).toMatchObject({
      workspace_credits_usage_percent: 100,
    });

    await o.api.patch(`/api/v2/users/workspaces/details/${o.workspaceId}`, { credit_limit: null });
    await o.api.patch(`/api/v2/pricing/update/${o.orgId}`, { organization_credit_limit: 0 });
    const byOrganization = await o.api.post(clusters(o), { name: 'none', workers: 0 });
    expect(byOrganization.status).toBe(403);
    expect(byOrganization.body).toMatchObject({ code: 'CREDIT_LIMIT_REACHED', limit: 'organization' });

    await o.api.patch(`/api/v2/pricing/update/${o.orgId}`, { organization_credit_limit: null });
    // The member's own credit limit null too: no limit anywhere.
    await c.ts.server.deps.db
      .update(workspaceMemberships)
      .set({ creditLimit: null })
      .where(eq(workspaceMemberships.userId, o.user.id));
    const allowed = await o.api.post(clusters(o), { name: 'some', workers: 0 });
    expect(allowed.status, allowed.text).toBe(201);
    expect((await o.api.get(`/api/v2/pricing/workspace/${o.workspaceId}/usage`)).body).toMatchObject({
      credit_limit: null,
      workspace_credit_limit: null,
      workspace_credits_user_usage_percent: null,
      workspace_credits_usage_percent: null,
    });
    await o.api.delete(`${clusters(o)}id/${allowed.body.id}`);
  });

  it("stops a running cluster at the organization's credit limit, naming it, with the loop's billing event", async () => {
    const o = await owner();
    // 0.97 of 1 credit used earlier this month: the cluster's own first minutes cross the limit.
    await usedBefore(o, monthStart(), { credits: 970_000, cost: 0 });
    await o.api.patch(`/api/v2/pricing/update/${o.orgId}`, { organization_credit_limit: 1 });
    const created = await o.api.post(clusters(o), { name: 'org-capped', workers: 0 });
    expect(created.status, created.text).toBe(201);
    const stopped = await waitForStopped(o, created.body.id);
    expect(stopped.current_state.reason).toMatch(
      /^Stopped because organization \S+ used its 1 monthly credits/,
    );
    expect(stopped.current_state.reason).toMatch(RENEWS);

    // The limits loop wrote why, with the cluster, on the workspace's billing events.
    const events = (
      await o.api.get(`/api/v1/${o.slug}/billing-events/`, { query: { kind: 'limit-reached' } })
    ).body;
    expect(events.results).toEqual([
      expect.objectContaining({
        kind: 'limit-reached',
        cluster_id: created.body.id,
        cluster: 'org-capped',
        detail: stopped.current_state.reason,
        data: { limit: 'organization' },
      }),
    ]);
    const refused = await o.api.post(clusters(o), { name: 'again', workers: 0 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'CREDIT_LIMIT_REACHED', limit: 'organization' });
    expect(
      (await o.api.get(`/api/v2/pricing/usage/${o.orgId}`)).body.program_credits_usage_percent,
    ).toBeGreaterThanOrEqual(100);
  }, 240_000);

  it('refuses new clusters at the spend limit, and stops running ones only when it should', async () => {
    const o = await owner();
    // $0.0099 of a $0.01 limit spent earlier this month.
    await usedBefore(o, monthStart(), { credits: 0, cost: 9_900 });
    const limits = await o.api.patch(`/api/v2/pricing/update/${o.orgId}`, {
      program_dollars_spend_limit: 0.01,
      spend_limit_should_stop_instances: false,
    });
    expect(limits.status, limits.text).toBe(200);
    const created = await o.api.post(clusters(o), { name: 'spender', workers: 0 });
    expect(created.status, created.text).toBe(201);
    await waitFor(
      'the spend limit reached',
      async () => {
        const usage = (await o.api.get(`/api/v2/pricing/usage/${o.orgId}`)).body;
        return usage.program_dollars_spend_usage_percent >= 100 ? usage : undefined;
      },
      150_000,
      500,
    );
    const refused = await o.api.post(clusters(o), { name: 'more', workers: 0 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'CREDIT_LIMIT_REACHED', limit: 'spend' });
    expect(refused.body.detail).toContain('reached its spend limit of $0.01');
    // Several rounds of the limits loop (one a second here) leave the running cluster alone.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect((await details(o, created.body.id)).current_state.state).not.toMatch(/stopp/);

    await o.api.patch(`/api/v2/pricing/update/${o.orgId}`, { spend_limit_should_stop_instances: true });
    const stopped = await waitForStopped(o, created.body.id);
    expect(stopped.current_state.reason).toMatch(
      /^Stopped because organization \S+ reached its spend limit of \$0\.01/,
    );
    expect(stopped.current_state.reason).toMatch(RENEWS);
  }, 240_000);

  it("counts this month only: last month's usage neither refuses nor stops", async () => {
    const o = await owner();
    // 50 credits and $2.50 on the last day of last month, against limits of 10 credits and $1.
    await usedBefore(o, new Date(monthStart().getTime() - 3_600_000), {
      credits: 50_000_000,
      cost: 2_500_000,
    });
    await o.api.patch(`/api/v2/users/workspaces/details/${o.workspaceId}`, { credit_limit: 10 });
    await o.api.patch(`/api/v2/pricing/update/${o.orgId}`, {
      organization_credit_limit: 10,
      program_dollars_spend_limit: 1,
    });
    const usage = (await o.api.get(`/api/v2/pricing/usage/${o.orgId}`)).body;
    expect(usage).toMatchObject({ credits_used: 0, program_credits_usage_percent: 0 });
    expect((await o.api.get(`/api/v2/user/account/${o.slug}/usage`)).body).toMatchObject({
      has_quota: true,
      workspace_credits_used: 0,
    });
    const created = await o.api.post(clusters(o), { name: 'new-month', workers: 0 });
    expect(created.status, created.text).toBe(201);
    // Last month's usage is still there to read.
    const lastDay = new Date(monthStart().getTime() - 86_400_000).toISOString().slice(0, 10);
    const earlier = await o.api.get('/api/v2/usage/', {
      query: { unit: 'credits', start: lastDay, end: lastDay },
    });
    expect(earlier.body.total).toBe(50);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await details(o, created.body.id)).current_state.state).not.toMatch(/stopp/);
    await o.api.delete(`${clusters(o)}id/${created.body.id}`);
  }, 120_000);
});
