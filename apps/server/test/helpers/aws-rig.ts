import { EC2Client } from '@aws-sdk/client-ec2';
import type { Api } from './api.js';
import { setUpAwsWorkspace } from './aws-workspace.js';
import { freePort, startClusterServer } from './clusters.js';
import { openTestDatabase } from './database.js';
import { Ec2Machines } from './ec2-vms.js';
import { createUser } from './factories.js';
import { awsEnvironment, type Moto, startMoto } from './moto.js';

/**
 * A test file's AWS: moto, the EC2 rig booting its instances here (one file at a time on this
 * machine: Ec2Machines.open may wait for another's), a server on its own database and a user
 * whose workspace is set up on vm_aws with `settings`.
 */
export interface AwsRig {
  moto: Moto;
  machines: Ec2Machines;
  database: Awaited<ReturnType<typeof openTestDatabase>>;
  ts: Awaited<ReturnType<typeof startClusterServer>>;
  api: Api;
  slug: string;
  userId: number;
  /** The region's x86_64 image (`amis`). */
  image: string;
  ec2(): EC2Client;
  close(): Promise<void>;
}

export async function openAwsRig(
  settings: (moto: Moto) => Promise<Record<string, unknown>> = async () => ({}),
  serverEnv: Record<string, string> = {},
): Promise<AwsRig> {
  const moto = await startMoto();
  const restoreEnv = awsEnvironment({ AWS_ENDPOINT_URL: moto.url });
  const ec2 = () => new EC2Client({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
  const machines = await Ec2Machines.open(moto.url, moto.keys);
  const database = await openTestDatabase();
  const ts = await startClusterServer(
    { CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: '60', ...serverEnv },
    { database, port: await freePort() },
  );
  const user = await createUser(ts);
  const api = ts.api.as(user.key);
  const slug = (await api.get('/api/v2/user/me')).body.default_account.slug as string;
  const image = await setUpAwsWorkspace(api, slug, moto.url, moto.keys, await settings(moto));
  return {
    moto,
    machines,
    database,
    ts,
    api,
    slug,
    userId: user.id,
    image,
    ec2,
    async close() {
      await ts.close();
      await machines.stop();
      await moto.stop();
      await database.close();
      restoreEnv();
    },
  };
}
