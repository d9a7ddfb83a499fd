import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from './helpers/api.js';
import { addMember, createOrganization, createUser, createWorkspace } from './helpers/factories.js';
import { GceRig } from './helpers/gce-rig/rig.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Get Started's cloud step ticks from the server: completing a workspace's cloud setup sets
 * `completed-setup-once` for its admins and `access-to-account-with-completed-setup` for everyone
 * who can use it (GCP here: its setup needs no cloud call).
 */
let ts: TestServer;
let rig: GceRig;
beforeAll(async () => {
  rig = await new GceRig().start();
  ts = await startTestServer(rig.env());
});
afterAll(async () => {
  await ts.close();
  await rig.stop();
});

const SETUP_FLAGS = ['completed-setup-once', 'access-to-account-with-completed-setup'] as const;

async function setupFlags(api: Api) {
  const res = await api.get('/api/v2/interactions/flag', { query: { name: [...SETUP_FLAGS] } });
  return Object.fromEntries(
    (res.body as { name: string; completed: boolean }[]).map((flag) => [flag.name, flag.completed]),
  );
}

/** A key Google (the rig's token endpoint) takes. */
function gcpKey() {
  return rig.tokens.createKey('c', 'cumulus-test-1');
}

describe('the flags of a completed cloud setup', () => {
  it('tick for the admins who set it up and for everyone who uses the workspace, once it is complete', async () => {
    const admin = await createUser(ts);
    const workspaceAdmin = await createUser(ts);
    const member = await createUser(ts);
    const outsider = await createUser(ts);
    const organization = await createOrganization(ts, admin);
    const workspace = await createWorkspace(ts, organization);
    await addMember(ts, workspaceAdmin, organization, { workspaces: [{ workspace, isAdmin: true }] });
    await addMember(ts, member, organization, { workspaces: [{ workspace }] });
    const as = (user: { key: string }) => ts.api.as(user.key);
    const setup = (path: string) => `/api/v2/setup/account/${workspace.slug}/${path}`;
    const none = { 'completed-setup-once': false, 'access-to-account-with-completed-setup': false };

    // Credentials and a global setup are not a complete setup yet: nothing ticks.
    const saved = await as(admin).post(`/api/v2/cloud-credentials/${workspace.slug}/gcp`, {
      credentials: gcpKey(),
    });
    expect(saved.status).toBe(200);
    expect((await as(admin).post(setup('gcp/global'), { network: 'dask-net' })).status).toBe(200);
    for (const user of [admin, workspaceAdmin, member]) expect(await setupFlags(as(user))).toEqual(none);

    // The region completes it.
    const regions = await as(admin).post(setup('gcp/regions'), { regions: [{ region: 'us-east1' }] });
    expect(regions.status).toBe(200);
    const both = { 'completed-setup-once': true, 'access-to-account-with-completed-setup': true };
    expect(await setupFlags(as(admin))).toEqual(both);
    expect(await setupFlags(as(workspaceAdmin))).toEqual(both);
    expect(await setupFlags(as(member))).toEqual({
      'completed-setup-once': false,
      'access-to-account-with-completed-setup': true,
    });
    expect(await setupFlags(as(outsider))).toEqual(none);
    // Every flag at once (what Get Started polls) says the same.
    const all = (await as(admin).get('/api/v2/interactions/flag')).body as {
      name: string;
      completed: boolean;
    }[];
    expect(all.filter((flag) => flag.completed).map((flag) => flag.name)).toEqual(
      expect.arrayContaining([...SETUP_FLAGS]),
    );

    // Someone who joins the set-up workspace later has access to it.
    await addMember(ts, outsider, organization, { workspaces: [{ workspace }] });
    expect(await setupFlags(as(outsider))).toEqual({
      'completed-setup-once': false,
      'access-to-account-with-completed-setup': true,
    });

    // Completed once stays completed when the setup goes.
    expect((await as(admin).delete(setup('gcp'))).body).toEqual({ deleted: true });
    expect((await setupFlags(as(admin)))['completed-setup-once']).toBe(true);
    expect((await setupFlags(as(workspaceAdmin)))['completed-setup-once']).toBe(true);
  });
});
