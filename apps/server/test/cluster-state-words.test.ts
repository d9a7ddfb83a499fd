import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters } from '../src/db/schema/index.js';
import { createClusterRow, createOrganization, createUser, createWorkspace } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
}, 120_000);
afterAll(() => ts.close());

describe('what a refusal says of a cluster that failed', () => {
  it('reads "Cluster x failed", not "Cluster x is error"', async () => {
    const admin = await createUser(ts);
    const organization = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, organization);
    const cluster = await createClusterRow(ts, workspace, admin, { name: 'console-demo' });
    await ts.server.deps.db
      .update(clusters)
      .set({ state: 'error', desiredState: 'stopped' })
      .where(eq(clusters.id, cluster.id));
    const scaled = await ts.api
      .as(admin.key)
      .post(`/api/v2/workers/account/${workspace.slug}/cluster/${cluster.id}/`, { n_workers: 1 });
    expect(scaled.status).toBe(400);
    expect(JSON.stringify(scaled.body)).toContain(
      'Cluster console-demo failed; only a running cluster can be scaled.',
    );
    expect(JSON.stringify(scaled.body)).not.toContain('is error');
  });
});
