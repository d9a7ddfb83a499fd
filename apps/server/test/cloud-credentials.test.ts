import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  CloudFormationClient,
  CreateStackCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudCredentials, clusters, instances } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { waitFor } from './helpers/clusters.js';
import { addMember, createClusterRow, createUser, type TestUser } from './helpers/factories.js';
import { awsEnvironment, type Moto, startMoto } from './helpers/moto.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Cloud credentials against moto_server with IAM authentication on: AWS keys are checked with
 * sts:GetCallerIdentity and wrong ones refused in AWS's words; GCP and Azure by shape; nothing
 * secret is ever answered or stored in clear; role assumption through the CloudFormation template
 * Cumulus serves; and the 409 confirm/retry protocol while clusters run in the cloud.
 */
let moto: Moto;
let ts: TestServer;
let admin: TestUser;
let api: Api;
let slug: string;
let workspaceId: number;
let restoreEnv: () => void;

beforeAll(async () => {
  moto = await startMoto({ auth: true });
  // Where AWS is, and this server's own AWS identity (the principal roles trust): the SDK reads them.
  restoreEnv = awsEnvironment({
    AWS_ENDPOINT_URL: moto.url,
    AWS_ACCESS_KEY_ID: moto.keys.accessKeyId,
    AWS_SECRET_ACCESS_KEY: moto.keys.secretAccessKey,
  });
  ts = await startTestServer();
  admin = await createUser(ts);
  api = ts.api.as(admin.key);
  const me = (await api.get('/api/v2/user/me')).body;
  slug = me.default_account.slug;
  workspaceId = me.default_account.id;
}, 120_000);

afterAll(async () => {
  await ts?.close();
  await moto?.stop();
  restoreEnv?.();
});

const awsUrl = () => `/api/v2/cloud-credentials/${slug}/aws`;

describe('AWS keys', () => {
  it('refuses keys AWS does not know, in AWS words, and stores nothing', async () => {
    const res = await api.post(awsUrl(), {
      credentials: { aws_access_key_id: 'AKIANOTAREALKEY12345', aws_secret_access_key: 'nope' },
    });
    expect(res.status).toBe(400);
    expect(res.body.credentials[0]).toMatch(
      /^AWS refused these credentials: InvalidClientTokenId: The security token included in the request is invalid/,
    );
    const wrongSecret = await api.post(awsUrl(), {
      credentials: { aws_access_key_id: moto.keys.accessKeyId, aws_secret_access_key: 'wrong-secret' },
    });
    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body.credentials[0]).toMatch(/SignatureDoesNotMatch/);
    expect((await api.get(awsUrl())).body).toMatchObject({ configured: false, kind: null });
  });

  it('checks good keys, stores them sealed and answers them masked', async () => {
    const res = await api.post(awsUrl(), {
      credentials: {
        aws_access_key_id: moto.keys.accessKeyId,
        aws_secret_access_key: moto.keys.secretAccessKey,
      },
      default_region: 'us-east-2',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: 'aws',
      configured: true,
      kind: 'keys',
      default_region: 'us-east-2',
      summary: { account: '123456789012', arn: 'arn:aws:iam::123456789012:user/cumulus-tests' },
    });
    const masked = res.body.summary.aws_access_key_id;
    expect(masked).toBe(`${moto.keys.accessKeyId.slice(0, 4)}…${moto.keys.accessKeyId.slice(-4)}`);
    const shown = JSON.stringify((await api.get(awsUrl())).body);
    expect(shown).not.toContain(moto.keys.secretAccessKey);
    expect(shown).not.toContain(moto.keys.accessKeyId);
    const [row] = await ts.server.deps.db
      .select()
      .from(cloudCredentials)
      .where(eq(cloudCredentials.workspaceId, workspaceId));
    expect(row!.secretBox).not.toContain(moto.keys.secretAccessKey);
    expect(ts.server.deps.cloudSecrets.decrypt(row!.secretBox)).toContain(moto.keys.secretAccessKey);
    // Sealed with a key of its own: the general secret box cannot open it.
    expect(() => ts.server.deps.secrets.decrypt(row!.secretBox)).toThrow();

    const me = (await api.get('/api/v2/user/me')).body.default_account;
    expect(me).toMatchObject({
      configured_customer_hosted: true,
      setup_complete: false,
      active_backend: 'in_process',
    });
  });

  it('lets members read the masked credentials but only admins change them', async () => {
    const member = await createUser(ts);
    const me = (await api.get('/api/v2/user/me')).body.default_account;
    await addMember(ts, member, me.organization, { workspaces: [{ workspace: { id: workspaceId } }] });
    const asMember = ts.api.as(member.key);
    const read = await asMember.get(awsUrl());
    expect(read.status).toBe(200);
    expect(read.body.configured).toBe(true);
    const change = await asMember.post(awsUrl(), {
      credentials: {
        aws_access_key_id: moto.keys.accessKeyId,
        aws_secret_access_key: moto.keys.secretAccessKey,
      },
    });
    expect(change.status).toBe(403);
    expect((await asMember.delete(awsUrl())).status).toBe(403);
    const outsider = ts.api.as((await createUser(ts)).key);
    expect((await outsider.get(awsUrl())).status).toBe(404);
    expect((await outsider.delete(awsUrl())).status).toBe(404);
    expect((await ts.api.get(awsUrl())).status).toBe(401);
  });

  it('refuses bad input with a 400 naming the field, writing nothing', async () => {
    const res = await api.post(awsUrl(), {
      credentials: { aws_access_key_id: 'lower-case!', aws_secret_access_key: 'x' },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['credentials.aws_access_key_id']);
    const region = await api.post(awsUrl(), {
      credentials: { aws_access_key_id: moto.keys.accessKeyId, aws_secret_access_key: 'x' },
      default_region: 'mars-1',
    });
    expect(Object.keys(region.body)).toEqual(['default_region']);
  });
});

describe('where AWS calls go', () => {
  it("is the SDK's to read: AWS_ENDPOINT_URL_<SERVICE> wins over AWS_ENDPOINT_URL for its service", async () => {
    const keys = {
      credentials: {
        aws_access_key_id: moto.keys.accessKeyId,
        aws_secret_access_key: moto.keys.secretAccessKey,
      },
    };
    // Nothing listens on port 9 here: a call sent there fails.
    const nowhere = awsEnvironment({ AWS_ENDPOINT_URL: 'http://127.0.0.1:9' });
    try {
      const lost = await api.post(awsUrl(), keys);
      expect(lost.status).toBe(400);
      expect(lost.body.credentials[0]).toMatch(/^AWS refused these credentials: .*ECONNREFUSED/);
      const sts = awsEnvironment({ AWS_ENDPOINT_URL_STS: moto.url });
      try {
        const found = await api.post(awsUrl(), keys);
        expect(found.status).toBe(200);
        expect(found.body.summary.account).toBe('123456789012');
      } finally {
        sts();
      }
    } finally {
      nowhere();
    }
  });
});

describe('GCP and Azure', () => {
  const gcpKey = (project: string) => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      type: 'service_account',
      project_id: project,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: `cumulus@${project}.iam.gserviceaccount.com`,
      client_id: '123456789012345678901',
      token_uri: 'https://oauth2.googleapis.com/token',
    };
  };
  const gcpUrl = () => `/api/v2/cloud-credentials/${slug}/gcp`;

  it('checks a service account key and its project, and masks its key id', async () => {
    const key = gcpKey('my-project-42');
    const wrongProject = await api.post(gcpUrl(), { credentials: key, project_id: 'other-project' });
    expect(wrongProject.status).toBe(400);
    expect(wrongProject.body.project_id[0]).toBe(
      'The key is for project "my-project-42", not "other-project".',
    );
    const notAKey = await api.post(gcpUrl(), { credentials: { ...key, private_key: 'garbage' } });
    expect(notAKey.body.credentials[0]).toBe('The key\'s "private_key" is not a PEM private key.');
    const userKey = await api.post(gcpUrl(), { credentials: { ...key, type: 'authorized_user' } });
    expect(userKey.status).toBe(400);

    const res = await api.post(gcpUrl(), {
      credentials: key,
      project_id: 'my-project-42',
      default_region: 'us-east1',
    });
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({ project_id: 'my-project-42', client_email: key.client_email });
    expect(JSON.stringify(res.body)).not.toContain(key.private_key_id);
    expect(JSON.stringify((await api.get(gcpUrl())).body)).not.toContain('PRIVATE KEY');
  });

  it('checks an Azure service principal by shape', async () => {
    const url = `/api/v2/cloud-credentials/${slug}/azure`;
    const principal = {
      credentials: {
        tenant_id: '2f7d0b36-2b52-4a53-9f0a-3f5a2a1b7c11',
        client_id: '8a1c8a53-1111-4c4d-8c1f-0d8b4e7c2a22',
        client_secret: 'shh-its-a-secret',
      },
      subscription_id: '0b2a7f25-3333-4d5e-9a7b-1c2d3e4f5a33',
      resource_group_name: 'cumulus-rg',
      default_region: 'eastus',
    };
    const bad = await api.post(url, { ...principal, subscription_id: 'not-a-uuid' });
    expect(bad.status).toBe(400);
    expect(bad.body.subscription_id[0]).toBe('Enter the subscription id (a UUID).');
    const res = await api.post(url, principal);
    expect(res.status).toBe(200);
    expect(res.body.summary).toMatchObject({
      resource_group_name: 'cumulus-rg',
      tenant_id: principal.credentials.tenant_id,
    });
    expect(JSON.stringify((await api.get(url)).body)).not.toContain('shh-its-a-secret');
  });
});

describe('role assumption through the CloudFormation template Cumulus serves', () => {
  it('serves the template, and completes once the stack role is reported', async () => {
    const started = await api.post(`/api/v2/cloud-credentials/account/${slug}/cf-setup-attempt`);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      state: 'pending',
      allowed_principal: 'arn:aws:iam::123456789012:user/cumulus-tests',
    });
    expect(started.body.launch_url).toContain('quickcreate');
    const templatePath = new URL(started.body.template_url).pathname;
    // The link works without signing in (CloudFormation fetches it); a forged one does not.
    const template = await ts.api.get(templatePath);
    expect(template.status).toBe(200);
    expect((await ts.api.get(templatePath.replace(/\/[^/]+$/, '/forged-signature-123'))).status).toBe(404);

    // The user creates the stack in their account (here: moto's CloudFormation, with the served template).
    const cf = new CloudFormationClient({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
    await cf.send(
      new CreateStackCommand({
        StackName: started.body.role_name,
        TemplateBody: template.text,
        Capabilities: ['CAPABILITY_NAMED_IAM'],
        Parameters: [
          { ParameterKey: 'CumulusPrincipal', ParameterValue: started.body.allowed_principal },
          { ParameterKey: 'ExternalId', ParameterValue: started.body.external_id },
        ],
      }),
    );
    const roleArn = await waitFor('the stack', async () => {
      const stack = (await cf.send(new DescribeStacksCommand({ StackName: started.body.role_name })))
        .Stacks?.[0];
      return (
        stack?.StackStatus === 'CREATE_COMPLETE' &&
        stack.Outputs?.find((o) => o.OutputKey === 'RoleArn')?.OutputValue
      );
    });
    expect(roleArn).toBe(`arn:aws:iam::123456789012:role/${started.body.role_name}`);

    const check = await api.post(`/api/v2/cloud-credentials/account/${slug}/check-role-assumption`, {
      role_arn: roleArn,
      external_id: started.body.external_id,
    });
    expect(check.body).toMatchObject({ ok: true, account: '123456789012' });

    const done = await api.post('/api/v2/cloud-credentials/callback', {
      attempt_id: started.body.id,
      role_arn: roleArn,
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      kind: 'role',
      summary: { role_arn: roleArn, account: '123456789012' },
    });
    const polled = await api.get(
      `/api/v2/cloud-credentials/account/${slug}/cf-setup-attempt/${started.body.id}`,
    );
    expect(polled.body).toMatchObject({ state: 'complete', role_arn: roleArn });
  });

  it('start-role-assumption-setup answers the principal and a new external id', async () => {
    const a = await api.post(`/api/v2/cloud-credentials/account/${slug}/start-role-assumption-setup`);
    const b = await api.post(`/api/v2/cloud-credentials/account/${slug}/start-role-assumption-setup`);
    expect(a.body.allowed_principal).toBe('arn:aws:iam::123456789012:user/cumulus-tests');
    expect(a.body.external_id).toMatch(/^[0-9a-f]{32}$/);
    expect(b.body.external_id).not.toBe(a.body.external_id);
  });
});

describe('the 409 protocol while clusters run in the cloud', () => {
  it('asks to confirm, then stops the clusters and answers retry until they are gone, then deletes', async () => {
    const cluster = await createClusterRow(ts, { id: workspaceId }, admin, { name: 'in-aws' });
    const db = ts.server.deps.db;
    await db.update(clusters).set({ backendType: 'vm_aws' }).where(eq(clusters.id, cluster.id));
    await db
      .update(instances)
      .set({ backendType: 'vm_aws', launchedAt: new Date() })
      .where(eq(instances.clusterId, cluster.id));

    const first = await api.delete(awsUrl());
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({ action_required: 'confirm', actionRequired: 'confirm' });
    expect(first.body.detail).toBe(
      '1 cluster (in-aws) run in AWS with these credentials. Deleting the AWS credentials stops it first. Continue?',
    );
    expect((await api.get(awsUrl())).body.configured).toBe(true);

    const confirmed = await api.delete(awsUrl(), { query: { confirm: 1 } });
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.action_required).toBe('retry');
    const [asked] = await db.select().from(clusters).where(eq(clusters.id, cluster.id));
    expect(asked!.desiredState).toBe('stopped');

    // Its machines released (what the control loop does once EC2 confirms them gone).
    await db.update(instances).set({ releasedAt: new Date() }).where(eq(instances.clusterId, cluster.id));
    await db.update(clusters).set({ state: 'stopped' }).where(eq(clusters.id, cluster.id));
    const deleted = await api.delete(awsUrl(), { query: { confirm: 'true' } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });
    expect((await api.get(awsUrl())).body.configured).toBe(false);
  });
});
