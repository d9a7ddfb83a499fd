import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { usageMinutes, workspaceMemberships, workspaces } from '../src/db/schema/index.js';
import { useClusterServer, waitFor } from './helpers/clusters.js';

/**
 * Limits that act, on real clusters: metering counts in 1 s "minutes" here, so a workspace with a
 * 1-credit monthly limit reaches it within seconds; its running cluster is stopped with the limit
 * named and new clusters are refused.
 */
const c = useClusterServer({ CUMULUS_METER_MINUTE_SECONDS: '1' });

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
        const details = (await c.api.get(`/api/v2/clusters/account/${c.slug}/id/${created.body.id}`)).body;
        return details.current_state.state === 'stopped' ? details : undefined;
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
});
