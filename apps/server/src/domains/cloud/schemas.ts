import { id, queryBool, text, z } from '../../http/zod.js';

export { workspaceParams } from '../clusters/index.js';

/** `?confirm=1` (Python client) or `?confirm=true` (console): the 409 protocol's repeat. */
export const confirmQuery = z.object({ confirm: queryBool.optional() });

export const AWS_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-central-1',
  'eu-north-1',
  'ap-south-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'sa-east-1',
] as const;
export const GCP_REGIONS = [
  'us-central1',
  'us-east1',
  'us-east4',
  'us-west1',
  'us-west2',
  'europe-west1',
  'europe-west2',
  'europe-west4',
  'asia-east1',
  'asia-northeast1',
  'asia-southeast1',
  'australia-southeast1',
] as const;
export const GCP_ZONES = GCP_REGIONS.flatMap((r) => ['a', 'b', 'c'].map((z) => `${r}-${z}`));
export const AZURE_REGIONS = [
  'eastus',
  'eastus2',
  'westus2',
  'westeurope',
  'northeurope',
  'uksouth',
] as const;

export const awsRegion = z.enum(AWS_REGIONS);
export const gcpRegion = z.enum(GCP_REGIONS);

/** `GET cloud/config/`. */
export const cloudConfigSchema = z.object({
  aws: z.object({ default_region: z.string(), supported_regions: z.array(z.string()) }),
  gcp: z.object({
    default_region: z.string(),
    default_zone: z.string(),
    supported_regions: z.array(z.string()),
    supported_zones: z.array(z.string()),
    /** The asker (the server's operator) may connect the server's own service account instead of a key. */
    workload_identity: z.boolean(),
  }),
  azure: z.object({ default_region: z.string(), supported_regions: z.array(z.string()) }),
});

const secretText = (max: number) => z.string().trim().min(1).max(max);

/** AWS keys: an access key pair, optionally with a session token. */
export const awsCredentialsBody = z.object({
  credentials: z.object({
    aws_access_key_id: z
      .string()
      .trim()
      .regex(/^[A-Z0-9]{16,128}$/, 'Enter an AWS access key id (letters and digits, like AKIA...).'),
    aws_secret_access_key: secretText(256),
    aws_session_token: z.string().trim().max(4096).optional(),
  }),
  default_region: awsRegion.optional(),
});

/**
 * A GCP service account key file's JSON and the project it is for, or (`workload_identity`, the
 * operator's choice where the server runs on Google Cloud) the server's own service account.
 */
export const gcpCredentialsBody = z.object({
  credentials: z.record(z.string().max(100), z.unknown()).optional(),
  workload_identity: z.boolean().optional(),
  project_id: text(100).optional(),
  default_region: gcpRegion.optional(),
});

const uuid = (field: string) =>
  z
    .string()
    .trim()
    .regex(
      /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
      `Enter the ${field} (a UUID).`,
    );

/** An Azure service principal (the shape `coiled setup azure` sends). */
export const azureCredentialsBody = z.object({
  credentials: z.object({
    tenant_id: uuid('tenant id'),
    client_id: uuid('client (application) id'),
    client_secret: secretText(512),
  }),
  subscription_id: uuid('subscription id'),
  resource_group_name: z
    .string()
    .trim()
    .regex(/^[-\w.()]{1,89}[-\w()]$/, 'Enter a resource group name (letters, digits, -, _, ., ( and )).'),
  default_region: z.enum(AZURE_REGIONS).optional(),
});

/** What is shown of a workspace's credentials: never a secret, the key id masked. */
export const credentialsAnswer = z.object({
  provider: z.enum(['aws', 'gcp', 'azure']),
  configured: z.boolean(),
  /** `keys`, `role`, `service_account`, `workload_identity` (GCP: the server's own account) or `service_principal`; null when none are stored. */
  kind: z.string().nullable(),
  default_region: z.string().nullable(),
  /** AWS: masked key id, account, caller ARN, role ARN; GCP: project, client email, key id; Azure: tenant, client, subscription, resource group. */
  summary: z.record(z.string(), z.string().nullable()),
  verified_at: z.string().nullable(),
  updated: z.string().nullable(),
});

export const deletedAnswer = z.object({ deleted: z.boolean() });

/** Role info sent by the console and the setup CLI. */
export const roleInfoBody = z.object({
  role_arn: z
    .string()
    .trim()
    .regex(
      /^arn:aws[\w-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/,
      'Enter a role ARN (arn:aws:iam::<account>:role/<name>).',
    ),
  external_id: z.string().trim().min(2).max(64).optional(),
  default_region: awsRegion.optional(),
});

export const callbackBody = roleInfoBody.extend({ attempt_id: id.optional() });

export const roleSetupAnswer = z.object({
  allowed_principal: z.string(),
  external_id: z.string(),
});

export const roleCheckAnswer = z.object({
  ok: z.boolean(),
  message: z.string(),
  account: z.string().nullable(),
});

export const attemptParams = z.object({ account: z.string().trim().min(1).max(64), id });

export const attemptAnswer = z.object({
  id: z.number().int(),
  /** `pending` until the role is known and kept, then `complete`, or `error` with the reason. */
  state: z.enum(['pending', 'complete', 'error']),
  reason: z.string(),
  /**
   * `cumulus`: Cumulus made the stack with the workspace's keys and follows it (polled here);
   * `console`: the user makes it (template, console steps), then completes the role setup.
   */
  mode: z.enum(['cumulus', 'console']),
  external_id: z.string(),
  allowed_principal: z.string(),
  role_name: z.string(),
  role_arn: z.string().nullable(),
  stack_name: z.string(),
  stack_id: z.string().nullable(),
  /** CloudFormation's status of the stack when Cumulus looked (mode `cumulus`, while pending). */
  stack_status: z.string().nullable(),
  /** The template's parameters for this workspace. */
  parameters: z.record(z.string(), z.string()),
  /** The template, to download (a signed link to this server). */
  template_url: z.string(),
  /** The CloudFormation console's page for creating a stack from an uploaded template. */
  console_url: z.string(),
  /** A quick-create link with everything filled in: only where the operator published the template in S3. */
  launch_url: z.string().nullable(),
  created: z.string(),
  updated: z.string(),
});

export const templateParams = z.object({ id, signature: z.string().trim().min(10).max(100) });
