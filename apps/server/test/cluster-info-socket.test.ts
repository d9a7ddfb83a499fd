import { EC2Client, RegisterImageCommand } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startClusterServer } from './helpers/clusters.js';
import { createUser, type TestUser } from './helpers/factories.js';
import { awsEnvironment, type Moto, startMoto } from './helpers/moto.js';

/**
 * The cluster-info WebSocket as established clients use it: one
 * message read after connecting, `update_options` sent, progress streamed until FINISHED; 4403
 * for callers who may not set the workspace's options.
 */
let moto: Moto;
let restoreEnv: () => void;
let ts: Awaited<ReturnType<typeof startClusterServer>>;
let admin: TestUser;
let slug: string;

beforeAll(async () => {
  moto = await startMoto();
  restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: moto.url });
  ts = await startClusterServer();
  admin = await createUser(ts);
  slug = (await ts.api.as(admin.key).get('/api/v2/user/me')).body.default_account.slug;
}, 120_000);
afterAll(async () => {
  await ts?.close();
  await moto?.stop();
  restoreEnv?.();
});

interface Session {
  messages: Record<string, unknown>[];
  code: number;
}

/** Connects as the client does, sends `data` after the first message, collects until closed. */
function session(token: string | null, workspace: string, data?: unknown): Promise<Session> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${ts.url.replace('http', 'ws')}/ws/api/v1/${workspace}/cluster-info/`, {
      headers: token ? { authorization: `Token ${token}` } : {},
    });
    const messages: Record<string, unknown>[] = [];
    ws.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      messages.push(message);
      if (messages.length === 1 && data !== undefined)
        ws.send(JSON.stringify({ type: 'update_options', logging_context: {}, data }));
      if (message.message === 'FINISHED') ws.close(1000);
    });
    ws.on('close', (code) => resolve({ messages, code }));
    ws.on('error', reject);
    setTimeout(() => reject(new Error(`no end: ${JSON.stringify(messages)}`)), 60_000);
  });
}

describe('ws/api/v1/{ws}/cluster-info/', () => {
  it('closes with 4403 without credentials, with bad ones, and for members who are not admins', async () => {
    expect((await session(null, slug)).code).toBe(4403);
    expect((await session('not-a-key', slug)).code).toBe(4403);
    const outsider = await createUser(ts);
    expect((await session(outsider.key, slug)).code).toBe(4403);
  });

  it('applies vm_aws options: checks the keys, sets up the account and region, and streams until FINISHED', async () => {
    // The region's machine image is found by its name (CUMULUS_AWS_AMI_NAME, cumulus-instance-*).
    const ec2 = new EC2Client({ region: 'us-east-2', endpoint: moto.url, credentials: moto.keys });
    const image = (
      await ec2.send(new RegisterImageCommand({ Name: 'cumulus-instance-1', RootDeviceName: '/dev/xvda' }))
    ).ImageId!;
    const s = await session(admin.key, slug, {
      backend: 'vm_aws',
      options: {
        region_name: 'us-east-2',
        credentials: {
          aws_access_key_id: moto.keys.accessKeyId,
          aws_secret_access_key: moto.keys.secretAccessKey,
        },
      },
    });
    expect(s.code).toBe(1000);
    const lines = s.messages.slice(1).map((m) => m.message);
    expect(s.messages.slice(1).every((m) => m.type === 'update_options')).toBe(true);
    expect(lines).toEqual([
      'CONFIGURING_BACKEND',
      'Checking the AWS credentials',
      'AWS credentials saved for account 123456789012',
      'Creating the instance profile and the cluster security group',
      'Setting up us-east-2',
      `Clusters of ${slug} now run in AWS us-east-2`,
      'FINISHED',
    ]);
    const options = await ts.api.as(admin.key).get(`/api/v1/${slug}/backend_options/`);
    expect(options.body).toMatchObject({ backend: 'vm_aws', options: { region_name: 'us-east-2' } });
    const settings = await ts.api.as(admin.key).get(`/api/v2/setup/account/${slug}/aws/settings`);
    expect(settings.body.amis).toEqual({ 'us-east-2': image });
  });

  it('streams an error flagged for the client to raise, then FINISHED', async () => {
    const s = await session(admin.key, slug, { backend: 'vm_aws', options: { region_name: 'moon-1' } });
    const error = s.messages.find((m) => m.is_error);
    expect(error).toMatchObject({
      type: 'update_options',
      raise: true,
      message: '"moon-1" is not an AWS region Cumulus supports.',
    });
    expect(s.messages.at(-1)?.message).toBe('FINISHED');
  });
});
