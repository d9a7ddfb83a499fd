import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClientOf } from '../src/compute/gcp/auth.js';
import { compute } from '../src/compute/gcp/sdk.js';
import { gcpPlacementOf } from '../src/domains/cloud/index.js';
import { createUser, type TestUser } from './helpers/factories.js';
import { GceRig } from './helpers/gce-rig/rig.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Workload identity: where the server runs on Google Cloud, its operator may connect the
 * server's own service account (its metadata server's tokens) to a workspace instead of a key.
 * The rig plays that metadata server (Metadata-Flavor: Google, a 404 for a machine without a
 * service account) and takes its tokens on its APIs.
 */
let rig: GceRig;
let offered: TestServer;
let refused: TestServer;
let operator: TestUser;
let someoneElse: TestUser;

const url = (slug: string) => `/api/v2/cloud-credentials/${slug}/gcp`;
const slugOf = async (ts: TestServer, user: TestUser) =>
  (await ts.api.as(user.key).get('/api/v2/user/me')).body.default_account.slug as string;

beforeAll(async () => {
  rig = await new GceRig().start();
  offered = await startTestServer({ ...rig.env(), CUMULUS_GCP_WORKLOAD_IDENTITY: 'true' });
  refused = await startTestServer(rig.env());
  // The first account of a server without staff is its operator.
  operator = await createUser(offered);
  someoneElse = await createUser(offered);
}, 120_000);

afterAll(async () => {
  await offered?.close();
  await refused?.close();
  await rig?.stop();
});

describe('the server’s own Google service account', () => {
  it('is offered only where the operator turned it on, and said so to the console', async () => {
    const user = await createUser(refused);
    const api = refused.api.as(user.key);
    expect((await api.get('/api/v2/cloud/config/')).body.gcp.workload_identity).toBe(false);
    const res = await api.post(url(await slugOf(refused, user)), { workload_identity: true });
    expect(res.status).toBe(400);
    expect(res.body.workload_identity[0]).toBe(
      'This server does not offer its own Google service account (CUMULUS_GCP_WORKLOAD_IDENTITY): give a service account key.',
    );
    const neither = await api.post(url(await slugOf(refused, user)), {});
    expect(neither.body.credentials[0]).toBe(
      'Give the service account key file (its JSON), or workload_identity: true.',
    );
    expect((await offered.api.as(operator.key).get('/api/v2/cloud/config/')).body.gcp.workload_identity).toBe(
      true,
    );
    // Offered to the operator alone.
    expect(
      (await offered.api.as(someoneElse.key).get('/api/v2/cloud/config/')).body.gcp.workload_identity,
    ).toBe(false);
  });

  it('is connected by the operator alone, checked like a key, and nothing secret is stored', async () => {
    const elsewhere = await offered.api
      .as(someoneElse.key)
      .post(url(await slugOf(offered, someoneElse)), { workload_identity: true });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.code).toBe('OPERATOR_ONLY');

    const api = offered.api.as(operator.key);
    const slug = await slugOf(offered, operator);
    const both = await api.post(url(slug), { workload_identity: true, credentials: rig.tokens.createKey() });
    expect(both.body.credentials[0]).toBe('Give a service account key or workload_identity, not both.');

    const account = rig.serverAccount!;
    rig.resourceManager.withhold(['compute.instances.create'], account);
    try {
      const lacking = await api.post(url(slug), { workload_identity: true });
      expect(lacking.status).toBe(400);
      expect(lacking.body.workload_identity[0]).toBe(
        `This server's service account ${account} lacks a permission Cumulus needs in project "${rig.project}": compute.instances.create. Grant it and connect it again.`,
      );
    } finally {
      rig.resourceManager.restore();
    }

    // Its archives stay on this server: Cloud Storage's permissions are not asked of it.
    rig.resourceManager.withhold(['storage.buckets.create', 'storage.objects.create'], account);
    const res = await api.post(url(slug), { workload_identity: true, default_region: 'us-east1' });
    rig.resourceManager.restore();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      configured: true,
      kind: 'workload_identity',
      default_region: 'us-east1',
      summary: { project_id: rig.project, client_email: account },
    });
    expect(rig.resourceManager.tested).toContain(rig.project);

    // The backend places the workspace's instances with the server's account, not a key.
    const setup = (p: string) => `/api/v2/setup/account/${slug}/gcp/${p}`;
    const global = await api.post(setup('global'), { network: 'default', target_tags: ['dask'] });
    expect(global.status).toBe(200);
    // No key signs links to a bucket: its environment archives stay on this server.
    expect(global.body.archive_bucket).toBeNull();
    expect((await api.post(setup('regions'), { regions: [{ region: 'us-central1' }] })).status).toBe(200);
    const me = (await api.get('/api/v2/user/me')).body.default_account;
    const store = (await offered.server.deps.backends.forWorkspace(me.id)).builder?.archives;
    expect(store).toBeDefined();
    expect(await store!.uploadTarget(me.id, 1)).toBeNull();
    expect(rig.storage.calls).toEqual([]);
    expect(me.active_backend).toBe('vm_gcp');
    const { deps } = offered.server;
    const placement = await gcpPlacementOf(deps.db, deps.cloudSecrets, me.id);
    expect(placement).toMatchObject({
      credential: { kind: 'server', email: account },
      project: rig.project,
      region: 'us-central1',
    });
  });

  it('refuses a machine without a service account, naming what the metadata server said', async () => {
    const api = offered.api.as(operator.key);
    const slug = await slugOf(offered, operator);
    const account = rig.serverAccount;
    rig.serverAccount = null;
    try {
      const res = await api.post(url(slug), { workload_identity: true });
      expect(res.status).toBe(400);
      expect(res.body.workload_identity[0]).toMatch(
        /^This server's metadata server answered 404 for instance\/service-accounts\/default\/(email|token): the machine has no service account$/,
      );
    } finally {
      rig.serverAccount = account;
    }
  });

  it("authorises the backend's Compute Engine calls with the metadata server's tokens", async () => {
    const urls = {
      tokenUrl: rig.env().CUMULUS_GCP_TOKEN_URL!,
      metadataUrl: rig.env().CUMULUS_GCP_METADATA_URL!,
    };
    const endpoint = new URL(rig.url);
    const client = (credential: Parameters<typeof authClientOf>[0]) =>
      new compute.InstancesClient({
        apiEndpoint: endpoint.hostname,
        port: Number(endpoint.port),
        protocol: 'http',
        fallback: true,
        authClient: authClientOf(credential, urls),
      });
    const server = client({ kind: 'server', email: rig.serverAccount! });
    const [listed] = await server.list({ project: rig.project, zone: 'us-central1-a' });
    expect(listed).toEqual([]);
    const used = [...rig.tokens.tokens.values()].filter((t) => t.email === rig.serverAccount);
    expect(used.length).toBeGreaterThan(0);
    await server.close();

    // Without the metadata server's token the call is not made at all.
    rig.serverAccount = null;
    try {
      const without = client({ kind: 'server', email: 'gone@cumulus-rig.iam.gserviceaccount.com' });
      await expect(without.list({ project: rig.project, zone: 'us-central1-a' })).rejects.toThrow(
        /metadata server answered 404/,
      );
      await without.close();
    } finally {
      rig.serverAccount = `cumulus-server@${rig.project}.iam.gserviceaccount.com`;
    }
  });
});
