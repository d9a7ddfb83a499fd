import { and, eq } from 'drizzle-orm';
import {
  type AwsSecret,
  cloudFormationClient,
  credentialsOf,
  ec2Client,
  iamClient,
} from '../../../compute/aws/clients.js';
import type { BucketAccess } from '../../../compute/aws/role-policy.js';
import type { Db } from '../../../db/client.js';
import { type CloudSetupRegion, cloudSetupRegions, cloudSetups } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import { ApiError } from '../../../http/errors.js';
import type { SecretBox } from '../../../lib/crypto.js';
import { awsOptions, awsSecretOf } from '../credentials.js';
import type { AwsSettings } from './schemas.js';

/** What `aws/global` made: the instance profile and, per region, the cluster security group. */
export interface AwsGlobal {
  allowed_cidr: string;
  instance_profile_name: string;
  instance_profile_arn: string;
  security_groups: Record<string, { vpc_id: string; group_id: string }>;
}

/** The role and instance profile cluster machines run with (the CloudFormation role may manage only these). */
export const instanceRoleName = (workspaceId: number) => `cumulus-instances-${workspaceId}`;

export const DEFAULT_AWS_SETTINGS = (allowedCidr: string): AwsSettings => ({
  worker_instance_types: ['m6i.xlarge', 'm5.xlarge'],
  scheduler_instance_types: ['m6i.xlarge', 'm5.xlarge'],
  spot: false,
  spot_on_demand_fallback: true,
  disk_size_gib: 50,
  amis: {},
  arm_amis: {},
  gpu_amis: {},
  allowed_cidr: allowedCidr,
  s3_read_buckets: [],
  s3_read_write_buckets: [],
});

/** The buckets a workspace's settings let its cluster machines use (the instance role's policy). */
export const bucketAccess = (settings: Partial<AwsSettings> | undefined): BucketAccess => ({
  read: settings?.s3_read_buckets ?? [],
  readWrite: settings?.s3_read_write_buckets ?? [],
});

export const noCredentials = () =>
  new ApiError(409, {
    detail: 'Add AWS credentials to this workspace first.',
    code: 'NO_CLOUD_SETUP',
    message: 'Add AWS credentials to this workspace first.',
  });

export type AwsClients = Awaited<ReturnType<typeof awsClientsOf>>;

/** The workspace's AWS: its credentials and SDK clients made with them. */
export async function awsClientsOf(deps: Pick<Deps, 'db' | 'cloudSecrets' | 'config'>, workspaceId: number) {
  const stored = await awsSecretOf(deps.db, deps.cloudSecrets, workspaceId);
  if (!stored) throw noCredentials();
  const options = awsOptions(deps);
  const home = stored.defaultRegion ?? 'us-east-1';
  const creds = credentialsOf(options, home, stored.secret);
  return {
    secret: stored.secret,
    defaultRegion: home,
    ec2: (region: string) => ec2Client(options, region, creds),
    iam: () => iamClient(options, creds),
    cloudFormation: (region: string) => cloudFormationClient(options, region, creds),
  };
}

export async function awsSetupRow(db: Db, workspaceId: number) {
  const [row] = await db
    .select()
    .from(cloudSetups)
    .where(and(eq(cloudSetups.workspaceId, workspaceId), eq(cloudSetups.provider, 'aws')));
  return row;
}

export async function regionRows(db: Db, workspaceId: number, provider: 'aws' | 'gcp') {
  return db
    .select()
    .from(cloudSetupRegions)
    .where(and(eq(cloudSetupRegions.workspaceId, workspaceId), eq(cloudSetupRegions.provider, provider)))
    .orderBy(cloudSetupRegions.id);
}

/** Where and how a workspace's EC2 instances run (what the vm_aws backend asks per launch). */
export interface AwsPlacement {
  secret: AwsSecret;
  region: string;
  subnetIds: string[];
  securityGroupId: string | null;
  instanceProfileArn: string | null;
  settings: AwsSettings;
}

export async function awsPlacementOf(
  db: Db,
  box: SecretBox,
  workspaceId: number,
  /** One of the workspace's set-up regions; else its default one. */
  regionName?: string,
): Promise<AwsPlacement | null> {
  const [stored, setup, regions] = await Promise.all([
    awsSecretOf(db, box, workspaceId),
    awsSetupRow(db, workspaceId),
    regionRows(db, workspaceId, 'aws'),
  ]);
  const region: CloudSetupRegion | undefined = regionName
    ? regions.find((r) => r.region === regionName)
    : (regions.find((r) => r.isDefault) ?? regions[0]);
  if (!stored || !setup?.global || !region) return null;
  const global = setup.global as unknown as AwsGlobal;
  const network = region.network as { subnet_ids?: string[]; security_group_id?: string };
  return {
    secret: stored.secret,
    region: region.region,
    subnetIds: network.subnet_ids ?? [],
    securityGroupId: network.security_group_id ?? null,
    instanceProfileArn: global.instance_profile_arn ?? null,
    settings: { ...DEFAULT_AWS_SETTINGS(global.allowed_cidr), ...(setup.settings as Partial<AwsSettings>) },
  };
}
