import { vmType } from '../../../compute/vm-types.js';
import { id, text, z } from '../../../http/zod.js';
import { awsRegion, gcpRegion } from '../schemas.js';

export { confirmQuery, workspaceParams } from '../schemas.js';

/** An IPv4 CIDR block (`203.0.113.7/32`); Dask's ports are opened to it alone. */
export const cidr = z
  .string()
  .trim()
  .refine((v) => {
    const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(v);
    return !!m && m.slice(1, 5).every((o) => Number(o) <= 255) && Number(m[5]) <= 32;
  }, 'Enter an IPv4 CIDR block, like 203.0.113.7/32.');

const awsId = (prefix: string, what: string) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^${prefix}-[0-9a-f]{8,17}$`), `Enter ${what} (${prefix}-...).`);
export const vpcId = awsId('vpc', 'a VPC id');
export const subnetId = awsId('subnet', 'a subnet id');
export const securityGroupId = awsId('sg', 'a security group id');
export const amiId = awsId('ami', 'an AMI id');

const instanceTypes = (backend: 'vm_aws' | 'vm_gcp') =>
  z
    .array(z.string().trim().min(1).max(64))
    .min(1)
    .max(10)
    .refine(
      (types) => types.every((t) => vmType(t)?.backendType === backend),
      'Every instance type must be one of the catalogue (GET /api/v2/pricing/vm-types/).',
    );

export const awsGlobalBody = z.object({
  /** Where Dask's ports are open from; the caller's own address (/32) when not given. */
  allowed_cidr: cidr.optional(),
  /** The region whose VPC gets the security group now (others get theirs when added). */
  region: awsRegion.optional(),
  /** That VPC; the region's default VPC when not given (a region may have none). */
  vpc_id: vpcId.optional(),
});

export const awsGlobalAnswer = z.object({
  configured: z.boolean(),
  allowed_cidr: z.string().nullable(),
  instance_profile_name: z.string().nullable(),
  instance_profile_arn: z.string().nullable(),
  /** Region → the cluster security group Cumulus made there and its VPC. */
  security_groups: z.record(z.string(), z.object({ vpc_id: z.string(), group_id: z.string() })),
});

export const awsRegionInput = z.object({
  region: awsRegion,
  vpc_id: vpcId.optional(),
  subnet_ids: z.array(subnetId).max(20).optional(),
  security_group_id: securityGroupId.optional(),
  default: z.boolean().optional(),
});
export const awsRegionsBody = z.object({ regions: z.array(awsRegionInput).min(1).max(16) });

export const regionAnswer = z.object({
  id: z.number().int(),
  provider: z.enum(['aws', 'gcp']),
  region: z.string(),
  default: z.boolean(),
  vpc_id: z.string().nullable(),
  subnet_ids: z.array(z.string()),
  security_group_id: z.string().nullable(),
  network: z.string().nullable(),
  subnet: z.string().nullable(),
  /** AWS: the machine image instances boot there (set in the settings, or found by name when the region was added). */
  ami_id: z.string().nullable(),
  /** AWS: the image arm64 instance types boot there (set, or found by name), if any. */
  arm_ami_id: z.string().nullable(),
  /** AWS: the image GPU instance types boot there, if one is set. */
  gpu_ami_id: z.string().nullable(),
  /** What keeps clusters from launching there, if anything (no machine image). */
  problem: z.string().nullable(),
});
export const regionsAnswer = z.object({ regions: z.array(regionAnswer) });
export const regionIdQuery = z.object({ id });

/** An S3 bucket name as AWS allows it (general purpose buckets). */
const s3Bucket = z
  .string()
  .trim()
  .min(3, 'A bucket name has 3 to 63 characters.')
  .max(63, 'A bucket name has 3 to 63 characters.')
  .regex(
    /^[a-z0-9][a-z0-9.-]*[a-z0-9]$/,
    'A bucket name has lowercase letters, digits, dots and hyphens, and starts and ends with a letter or digit.',
  )
  .refine((b) => !b.includes('..') && !/^\d+\.\d+\.\d+\.\d+$/.test(b), {
    message: 'A bucket name has no two dots in a row and is not an IP address.',
  });
const s3Buckets = z
  .array(s3Bucket)
  .max(100)
  .refine((list) => new Set(list).size === list.length, { message: 'Name each bucket once.' });

export const awsSettingsSchema = z.object({
  worker_instance_types: instanceTypes('vm_aws'),
  scheduler_instance_types: instanceTypes('vm_aws'),
  /** Spot instances for workers; with fallback, on-demand when spot capacity is short. */
  spot: z.boolean(),
  spot_on_demand_fallback: z.boolean(),
  disk_size_gib: z.number().int().min(8).max(16_384),
  /** Region → the AMI instances boot (it must have python3 with distributed); x86_64 unless found otherwise. */
  amis: z.partialRecord(awsRegion, amiId),
  /** Region → the arm64 AMI arm64 (Graviton) types boot; none: they are refused there. */
  arm_amis: z.partialRecord(awsRegion, amiId),
  /** Region → the AMI GPU types boot (with the NVIDIA driver); none: they boot the region's image of their architecture. */
  gpu_amis: z.partialRecord(awsRegion, amiId),
  allowed_cidr: cidr,
  /** S3 buckets cluster machines may read (the instance role's policy); nothing else by default. */
  s3_read_buckets: s3Buckets,
  /** S3 buckets cluster machines may read and write. */
  s3_read_write_buckets: s3Buckets,
});
export type AwsSettings = z.infer<typeof awsSettingsSchema>;
export const awsSettingsPatch = awsSettingsSchema.partial();

export const regionQuery = z.object({ region: awsRegion });
export const vpcQuery = z.object({ region: awsRegion, vpc_id: vpcId.optional() });
export const regionParams = z.object({ account: z.string().trim().min(1).max(64), region: awsRegion });

export const vpcsAnswer = z.object({
  vpcs: z.array(
    z.object({
      vpc_id: z.string(),
      cidr_block: z.string(),
      is_default: z.boolean(),
      name: z.string().nullable(),
    }),
  ),
});
export const azsAnswer = z.object({
  availability_zones: z.array(z.object({ name: z.string(), zone_id: z.string(), state: z.string() })),
});
export const subnetsAnswer = z.object({
  subnets: z.array(
    z.object({
      subnet_id: z.string(),
      vpc_id: z.string(),
      availability_zone: z.string(),
      cidr_block: z.string(),
      available_ips: z.number().int(),
      map_public_ip_on_launch: z.boolean(),
      name: z.string().nullable(),
    }),
  ),
});
export const securityGroupsAnswer = z.object({
  security_groups: z.array(
    z.object({ group_id: z.string(), group_name: z.string(), vpc_id: z.string(), description: z.string() }),
  ),
});

// GCP: settings are stored and checked by shape; Cumulus does not call Google.
const gcpName = z
  .string()
  .trim()
  .regex(
    /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/,
    'Use lower-case letters, digits and hyphens (a GCP resource name).',
  );

export const gcpGlobalBody = z.object({
  network: gcpName.optional(),
  firewall_cidr: cidr.optional(),
  target_tags: z.array(gcpName).max(20).optional(),
});
export const gcpGlobalAnswer = z.object({
  configured: z.boolean(),
  project_id: z.string().nullable(),
  network: z.string().nullable(),
  firewall_cidr: z.string().nullable(),
  target_tags: z.array(z.string()),
  archive_bucket: z
    .string()
    .nullable()
    .describe(
      "The Cloud Storage bucket of the workspace's project where vm_gcp keeps environment archives (made by the first build); null: they stay on this server (no credentials yet, or this server's own service account, which has no key to sign links with).",
    ),
});
export const gcpRegionsBody = z.object({
  regions: z
    .array(z.object({ region: gcpRegion, subnet: gcpName.optional(), default: z.boolean().optional() }))
    .min(1)
    .max(12),
});
export const gcpSettingsSchema = z.object({
  worker_instance_types: instanceTypes('vm_gcp'),
  scheduler_instance_types: instanceTypes('vm_gcp'),
  spot: z.boolean(),
  spot_on_demand_fallback: z.boolean(),
  disk_size_gib: z.number().int().min(10).max(65_536),
  zone: text(64).optional(),
});
export const gcpSettingsPatch = gcpSettingsSchema.partial();
export const gcpNamesAnswer = z.object({ items: z.array(z.string()), source: z.enum(['settings']) });
export const gcpSubnetsQuery = z.object({ region: gcpRegion.optional() });
export const gcpTagsQuery = z.object({ network_link: text(500).optional() });

export const dockerSchema = z.object({
  registry_type: z.enum(['none', 'dockerhub', 'ecr', 'gar', 'acr', 'other']),
  registry_uri: z.string().trim().max(500),
  namespace: z.string().trim().max(200),
  username: z.string().trim().max(200),
});
export const dockerPatch = dockerSchema.partial().extend({
  /** Write-only: kept sealed, answered as `has_password`. Empty string forgets it. */
  password: z.string().max(4096).optional(),
});
export const dockerAnswer = dockerSchema.extend({
  has_password: z.boolean(),
  updated: z.string().nullable(),
});

export const deletedAnswer = z.object({ deleted: z.boolean() });
export const awsDeletedAnswer = deletedAnswer.extend({
  /** What Cumulus made that stays in the account (it had no credentials to remove it with). */
  left_in_account: z.array(z.string()),
});
