import {
  CloudFormationClient,
  CreateStackCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GCP_PERMISSIONS } from '../src/compute/gcp/permissions.js';
import { loadConfig } from '../src/config.js';
import { cloudCredentials, clusters, instances } from '../src/db/schema/index.js';
import type { Api } from './helpers/api.js';
import { waitFor } from './helpers/clusters.js';
import { addMember, createClusterRow, createUser, type TestUser } from './helpers/factories.js';
import { validPermission } from './helpers/gce-rig/resource-manager.js';
import { GceRig } from './helpers/gce-rig/rig.js';
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
let rig: GceRig;
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
  rig = await new GceRig().start();
  ts = await startTestServer(rig.env());
  admin = await createUser(ts);
  api = ts.api.as(admin.key);
  const me = (await api.get('/api/v2/user/me')).body;
  slug = me.default_account.slug;
  workspaceId = me.default_account.id;
}, 120_000);

afterAll(async () => {
  await ts?.close();
  await rig?.stop();
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
  const gcpKey = (project: string) => rig.tokens.createKey('cumulus', project);
  const gcpUrl = () => `/api/v2/cloud-credentials/${slug}/gcp`;

  it("refuses a key Google does not take, in Google's words, and stores nothing", async () => {
    const key = gcpKey('my-project-43');
    rig.tokens.revoke(key.private_key_id!);
    const res = await api.post(gcpUrl(), { credentials: key });
    expect(res.status).toBe(400);
    expect(res.body.credentials[0]).toBe('Google refused this service account key: Invalid JWT Signature.');
    expect((await api.get(gcpUrl())).body.configured).toBe(false);
  });

  it('checks a service account key and its project by a token exchange, and masks its key id', async () => {
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
      credentials: { ...key, token_uri: 'http://127.0.0.1:9/not-google' },
      project_id: 'my-project-42',
      default_region: 'us-east1',
    });
    expect(res.status).toBe(200);
    // Exchanged at the server's token endpoint, not the key's token_uri.
    expect(rig.tokens.exchanges).toContain(key.client_email);
    expect(res.body.summary).toMatchObject({ project_id: 'my-project-42', client_email: key.client_email });
    expect(JSON.stringify(res.body)).not.toContain(key.private_key_id);
    expect(JSON.stringify((await api.get(gcpUrl())).body)).not.toContain('PRIVATE KEY');
  });

  it("asks the key's project which permissions it holds and refuses the key naming each one missing", async () => {
    const key = gcpKey('my-project-44');
    rig.resourceManager.withhold(
      ['compute.instances.create', 'compute.subnetworks.useExternalIp'],
      key.client_email,
    );
    try {
      const res = await api.post(gcpUrl(), { credentials: key });
      expect(res.status).toBe(400);
      expect(res.body.credentials[0]).toBe(
        `The service account ${key.client_email} lacks permissions Cumulus needs in project "my-project-44": compute.instances.create, compute.subnetworks.useExternalIp. Grant them and save the key again.`,
      );
      expect(rig.resourceManager.tested).toContain('my-project-44');
      // Nothing stored: the key saved before stays.
      expect((await api.get(gcpUrl())).body.summary.project_id).toBe('my-project-42');
      rig.resourceManager.restore();
      rig.resourceManager.withhold(['compute.zoneOperations.get']);
      const one = await api.post(gcpUrl(), { credentials: key });
      expect(one.body.credentials[0]).toBe(
        `The service account ${key.client_email} lacks a permission Cumulus needs in project "my-project-44": compute.zoneOperations.get. Grant it and save the key again.`,
      );
      // The archive bucket's (vm_gcp keeps environment archives there).
      rig.resourceManager.restore();
      rig.resourceManager.withhold(['storage.objects.create']);
      const storage = await api.post(gcpUrl(), { credentials: key });
      expect(storage.body.credentials[0]).toBe(
        `The service account ${key.client_email} lacks a permission Cumulus needs in project "my-project-44": storage.objects.create. Grant it and save the key again.`,
      );
    } finally {
      rig.resourceManager.restore();
    }
    // Each permission the backend's calls need is one the protos know (else Google would refuse the check).
    for (const permission of GCP_PERMISSIONS) expect(validPermission(permission), permission).toBe(true);
    expect(validPermission('compute.instances.fly')).toBe(false);
    expect(validPermission('compute.*')).toBe(false);
  });

  it("answers testIamPermissions as Google defines it: the held subset, refusals in Google's words", async () => {
    const email = `tester@${rig.project}.iam.gserviceaccount.com`;
    const ask = (resource: string, body: unknown, token = rig.tokens.issue(email)) =>
      fetch(`${rig.url}/v1/${resource}:testIamPermissions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => [r.status, await r.json()] as const);
    rig.resourceManager.withhold(['compute.instances.delete']);
    try {
      expect(
        await ask(`projects/${rig.project}`, {
          permissions: ['compute.instances.create', 'compute.instances.delete'],
        }),
      ).toEqual([200, { permissions: ['compute.instances.create'] }]);
      // Nothing held: proto3 JSON leaves the empty list out.
      expect(await ask(`projects/${rig.project}`, { permissions: ['compute.instances.delete'] })).toEqual([
        200,
        {},
      ]);
      expect(await ask('projects/someone-else', { permissions: ['compute.instances.create'] })).toEqual([
        200,
        {},
      ]);
    } finally {
      rig.resourceManager.restore();
    }
    const [unknownField, unknownBody] = await ask(`projects/${rig.project}`, { permission: ['x'] });
    expect(unknownField).toBe(400);
    expect(unknownBody.error.message).toBe(
      'Invalid JSON payload received. Unknown name "permission": Cannot find field.',
    );
    const [, notAList] = await ask(`projects/${rig.project}`, { permissions: 'compute.instances.create' });
    expect(notAList.error.message).toBe("Invalid value at 'permissions', expected a list");
    const [wildcard, wildcardBody] = await ask(`projects/${rig.project}`, { permissions: ['compute.*'] });
    expect([wildcard, wildcardBody.error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(wildcardBody.error.message).toBe('Permission compute.* is not valid for this resource.');
    const [unauthenticated] = await ask(`projects/${rig.project}`, { permissions: [] }, 'ya29.not-issued');
    expect(unauthenticated).toBe(401);
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

const cf = () =>
  new CloudFormationClient({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
/** The role the user's own stack made (role assumption without keys), kept for the 409 tests. */
let consoleAttempt: { id: number; role_arn: string };

describe('role assumption', () => {
  const attemptUrl = (id?: number) =>
    `/api/v2/cloud-credentials/account/${slug}/cf-setup-attempt${id ? `/${id}` : ''}`;

  it('start-role-assumption-setup answers the principal and a new external id', async () => {
    const a = await api.post(`/api/v2/cloud-credentials/account/${slug}/start-role-assumption-setup`);
    const b = await api.post(`/api/v2/cloud-credentials/account/${slug}/start-role-assumption-setup`);
    expect(a.body.allowed_principal).toBe('arn:aws:iam::123456789012:user/cumulus-tests');
    expect(a.body.external_id).toMatch(/^[0-9a-f]{32}$/);
    expect(b.body.external_id).not.toBe(a.body.external_id);
  });

  it("with the workspace's keys, Cumulus creates the stack itself; the attempt, polled by id, completes with the stack's role", async () => {
    expect((await api.get(awsUrl())).body.kind).toBe('keys');
    const started = await api.post(attemptUrl());
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      state: 'pending',
      mode: 'cumulus',
      stack_status: 'CREATE_IN_PROGRESS',
      launch_url: null,
      allowed_principal: 'arn:aws:iam::123456789012:user/cumulus-tests',
    });
    expect(started.body.stack_id).toMatch(
      new RegExp(`^arn:aws:cloudformation:us-east-1:123456789012:stack/${started.body.stack_name}/`),
    );
    // The stack in the account, made from the template Cumulus serves with the workspace's parameters.
    const stack = (await cf().send(new DescribeStacksCommand({ StackName: started.body.stack_id })))
      .Stacks![0]!;
    expect(Object.fromEntries(stack.Parameters!.map((p) => [p.ParameterKey, p.ParameterValue]))).toEqual(
      started.body.parameters,
    );
    expect(started.body.parameters).toMatchObject({
      ExternalId: started.body.external_id,
      RoleName: started.body.role_name,
      InstanceRoleName: `cumulus-instances-${workspaceId}`,
    });

    const done = await waitFor('the attempt complete', async () => {
      const polled = await api.get(attemptUrl(started.body.id));
      return polled.body.state !== 'pending' && polled.body;
    });
    const roleArn = `arn:aws:iam::123456789012:role/${started.body.role_name}`;
    expect(done).toMatchObject({ state: 'complete', role_arn: roleArn, reason: '' });
    expect((await api.get(awsUrl())).body).toMatchObject({
      kind: 'role',
      summary: { role_arn: roleArn, account: '123456789012', external_id: started.body.external_id },
    });
  });

  it('without keys: the template to download and the console steps; the stack the user makes completes through complete-role-assumption-setup', async () => {
    expect((await api.delete(awsUrl())).body).toEqual({ deleted: true });
    const started = await api.post(attemptUrl());
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      state: 'pending',
      mode: 'console',
      stack_id: null,
      launch_url: null,
      console_url: 'https://console.aws.amazon.com/cloudformation/home?region=us-east-1#/stacks/create',
    });
    const templatePath = new URL(started.body.template_url).pathname;
    // The link works without signing in; a forged one does not.
    const template = await ts.api.get(templatePath);
    expect(template.status).toBe(200);
    expect((await ts.api.get(templatePath.replace(/\/[^/]+$/, '/forged-signature-123'))).status).toBe(404);

    // The user makes the stack in their account from the downloaded template.
    await cf().send(
      new CreateStackCommand({
        StackName: started.body.stack_name,
        TemplateBody: template.text,
        Capabilities: ['CAPABILITY_NAMED_IAM'],
        Parameters: Object.entries(started.body.parameters as Record<string, string>).map(([k, v]) => ({
          ParameterKey: k,
          ParameterValue: v,
        })),
      }),
    );
    const roleArn = await waitFor('the stack', async () => {
      const stack = (await cf().send(new DescribeStacksCommand({ StackName: started.body.stack_name })))
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

    const done = await api.post(`/api/v2/cloud-credentials/account/${slug}/complete-role-assumption-setup`, {
      attempt_id: started.body.id,
      role_arn: roleArn,
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      kind: 'role',
      summary: { role_arn: roleArn, account: '123456789012' },
    });
    expect((await api.get(attemptUrl(started.body.id))).body).toMatchObject({
      state: 'complete',
      role_arn: roleArn,
    });
    consoleAttempt = { id: started.body.id, role_arn: roleArn };
  });

  it('a role AWS refuses is not kept, in AWS words', async () => {
    const started = await api.post(`/api/v2/cloud-credentials/account/${slug}/start-role-assumption-setup`);
    const complete = (roleArn: string) =>
      api.post(`/api/v2/cloud-credentials/account/${slug}/complete-role-assumption-setup`, {
        external_id: started.body.external_id,
        role_arn: roleArn,
      });
    // A role that trusts this server, but with another external id.
    const iam = new IAMClient({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
    await iam.send(
      new CreateRoleCommand({
        RoleName: 'trusts-another-workspace',
        AssumeRolePolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: { AWS: 'arn:aws:iam::123456789012:user/cumulus-tests' },
              Action: 'sts:AssumeRole',
              Condition: { StringEquals: { 'sts:ExternalId': 'someone-else' } },
            },
          ],
        }),
      }),
    );
    const other = await complete('arn:aws:iam::123456789012:role/trusts-another-workspace');
    expect(other.status).toBe(400);
    expect(other.body.role_arn[0]).toMatch(
      /^AWS refused to let Cumulus assume arn:aws:iam::123456789012:role\/trusts-another-workspace: AccessDenied/,
    );
    // The role kept before stays.
    expect((await api.get(awsUrl())).body.summary.role_arn).toBe(consoleAttempt.role_arn);
  });

  it("the operator's template published in S3 makes a quick-create link; one outside S3 is refused", async () => {
    const s3 = 'https://cumulus-templates.s3.amazonaws.com/role.json';
    const other = await startTestServer({ CUMULUS_AWS_CF_TEMPLATE_URL: s3 });
    try {
      const asAdmin = other.api.as((await createUser(other)).key);
      const ws = (await asAdmin.get('/api/v2/user/me')).body.default_account.slug;
      const started = await asAdmin.post(`/api/v2/cloud-credentials/account/${ws}/cf-setup-attempt`);
      expect(started.body.mode).toBe('console');
      const link = new URL(started.body.launch_url);
      expect(`${link.origin}${link.pathname}${link.search}`).toBe(
        'https://console.aws.amazon.com/cloudformation/home?region=us-east-1',
      );
      const [route, query] = link.hash.slice(1).split('?');
      expect(route).toBe('/stacks/quickcreate');
      expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
        templateURL: s3,
        stackName: started.body.stack_name,
        ...Object.fromEntries(
          Object.entries(started.body.parameters as Record<string, string>).map(([k, v]) => [
            `param_${k}`,
            v,
          ]),
        ),
      });
    } finally {
      await other.close();
    }
    expect(() =>
      loadConfig({ CUMULUS_AWS_CF_TEMPLATE_URL: 'https://cumulus.example.com/role.json' }),
    ).toThrow(/CUMULUS_AWS_CF_TEMPLATE_URL must be the https URL of the template in S3/);
  });
});

/** A cluster on vm_aws whose machines run (as the control loop leaves them once EC2 has them). */
async function clusterInAws(name: string) {
  const cluster = await createClusterRow(ts, { id: workspaceId }, admin, { name });
  const db = ts.server.deps.db;
  await db.update(clusters).set({ backendType: 'vm_aws' }).where(eq(clusters.id, cluster.id));
  await db
    .update(instances)
    .set({ backendType: 'vm_aws', launchedAt: new Date() })
    .where(eq(instances.clusterId, cluster.id));
  return cluster.id;
}

/** Its machines released and the cluster stopped (what the control loop does once EC2 confirms them gone). */
async function released(clusterId: number) {
  const db = ts.server.deps.db;
  const [asked] = await db.select().from(clusters).where(eq(clusters.id, clusterId));
  expect(asked!.desiredState).toBe('stopped');
  await db.update(instances).set({ releasedAt: new Date() }).where(eq(instances.clusterId, clusterId));
  await db.update(clusters).set({ state: 'stopped' }).where(eq(clusters.id, clusterId));
}

const confirmText = (cluster: string, change: string) =>
  `1 cluster (${cluster}) run in AWS with these credentials. ${change} stops it first. Continue?`;

describe('the 409 protocol while clusters run in the cloud', () => {
  // The test plays the control loop's part (released() below); a running loop would race it,
  // writing the cluster's state back after the test has marked it stopped.
  beforeAll(() => ts.server.stopLoops());

  it('replacing the credentials, even with keys of the same account, asks first', async () => {
    const body = {
      credentials: {
        aws_access_key_id: moto.keys.accessKeyId,
        aws_secret_access_key: moto.keys.secretAccessKey,
      },
    };
    const id = await clusterInAws('keys-swap');
    const first = await api.post(awsUrl(), body);
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({ action_required: 'confirm', actionRequired: 'confirm' });
    expect(first.body.detail).toBe(confirmText('keys-swap', 'Replacing the AWS credentials'));
    expect((await api.get(awsUrl())).body.kind).toBe('role');
    const confirmed = await api.post(awsUrl(), body, { query: { confirm: 'true' } });
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.action_required).toBe('retry');
    await released(id);
    const replaced = await api.post(awsUrl(), body, { query: { confirm: 'true' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.kind).toBe('keys');
  });

  it('switching to a role asks first: a CloudFormation attempt with the keys, complete-role-assumption-setup and the callback', async () => {
    const id = await clusterInAws('role-swap');
    const stacksBefore = (await cf().send(new DescribeStacksCommand({}))).Stacks?.length ?? 0;
    const attempt = await api.post(`/api/v2/cloud-credentials/account/${slug}/cf-setup-attempt`);
    expect(attempt.status).toBe(409);
    expect(attempt.body.detail).toBe(confirmText('role-swap', 'Switching the AWS credentials to a role'));
    expect((await cf().send(new DescribeStacksCommand({}))).Stacks?.length ?? 0).toBe(stacksBefore);

    const role = { attempt_id: consoleAttempt.id, role_arn: consoleAttempt.role_arn };
    const completeUrl = `/api/v2/cloud-credentials/account/${slug}/complete-role-assumption-setup`;
    for (const url of [completeUrl, '/api/v2/cloud-credentials/callback']) {
      const asked = await api.post(url, role);
      expect(asked.status).toBe(409);
      expect(asked.body).toMatchObject({ action_required: 'confirm' });
      expect(asked.body.detail).toBe(confirmText('role-swap', 'Replacing the AWS credentials'));
    }
    expect((await api.get(awsUrl())).body.kind).toBe('keys');
    const [running] = await ts.server.deps.db.select().from(clusters).where(eq(clusters.id, id));
    expect(running!.desiredState).not.toBe('stopped');

    const confirmed = await api.post(completeUrl, role, { query: { confirm: 'true' } });
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.action_required).toBe('retry');
    await released(id);
    const done = await api.post(completeUrl, role, { query: { confirm: 'true' } });
    expect(done.status).toBe(200);
    expect(done.body.kind).toBe('role');
  });

  it('deleting asks to confirm, then stops the clusters and answers retry until they are gone, then deletes', async () => {
    const id = await clusterInAws('in-aws');
    const first = await api.delete(awsUrl());
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({ action_required: 'confirm', actionRequired: 'confirm' });
    expect(first.body.detail).toBe(confirmText('in-aws', 'Deleting the AWS credentials'));
    expect((await api.get(awsUrl())).body.configured).toBe(true);

    const confirmed = await api.delete(awsUrl(), { query: { confirm: 1 } });
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.action_required).toBe('retry');
    await released(id);
    const deleted = await api.delete(awsUrl(), { query: { confirm: 'true' } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });
    expect((await api.get(awsUrl())).body.configured).toBe(false);
  });
});
