import { id, text, z } from '../../../http/zod.js';
import { FULL_NAME_MAX, isEmail, PREFERRED_NAME_MAX } from '../auth/rules.js';
import { creditLimitField } from '../memberships/schemas.js';
import { organizationBrief, workspaceBrief } from '../organizations/present.js';
import { nameField } from '../organizations/schemas.js';

export { organizationMembershipSchema } from '../organizations/schemas.js';

export const profileSchema = z.object({
  avatar_url: z.string().nullable(),
  can_contact: z.boolean(),
  company: z.string(),
  phone_number: z.string(),
  title: z.string(),
  work_email: z.string(),
  has_git_access_token: z.boolean(),
  has_ssh_public_key: z.boolean(),
});

export const currentUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  full_name: z.string(),
  preferred_name: z.string(),
  email: z.string(),
  is_staff: z.boolean(),
  has_usable_password: z.boolean(),
  should_see_notebook_page: z
    .boolean()
    .describe(
      'The console shows the Notebooks page: to everyone with a workspace to start a notebook in, and to whom staff switched it on.',
    ),
  email_verified: z.boolean(),
  default_account: workspaceBrief.nullable(),
  default_organization: organizationBrief.nullable(),
  profile: profileSchema,
  cumulus_hosted_monthly_limit: z.number().nullable(),
  date_joined: z.string(),
  last_login: z.string().nullable(),
});

export const membershipSchema = z.object({
  id: z.number().int(),
  account: workspaceBrief,
  is_admin: z.boolean(),
  is_default_account: z.boolean(),
  credit_limit: z.number().int().nullable(),
  core_limit: z.number().int(),
});

/** An entry of the scope pickers; `id` is what list filters take (see access/scopes.ts). */
export const scopeSchema = z.object({
  type: z.enum(['compound', 'organization', 'account', 'user', 'custom_staff']),
  id: z.union([z.number().int(), z.string()]).nullable(),
  name: z.string(),
  /** The workspace's slug for account scopes (the `account` list filter takes it); null otherwise. */
  slug: z.string().nullable(),
  email: z.string().nullable(),
  workspace_names: z.array(z.string()),
  organization_id: z.number().int().nullable(),
});

export const userPatchBody = z.object({
  username: z.string().trim().min(1).max(150).optional(),
  default_account: id.optional(),
});

const phoneRe = /^\+?[0-9 -]*$/;
export const profilePatchBody = z.object({
  full_name: text(FULL_NAME_MAX).optional(),
  preferred_name: text(PREFERRED_NAME_MAX).optional(),
  title: text(150).optional(),
  company: text(150).optional(),
  work_email: text(254)
    .refine((v) => v === '' || isEmail(v), 'Please enter a valid email address')
    .optional(),
  phone_number: text(32).regex(phoneRe, 'Can contain numbers and hyphens').optional(),
  can_contact: z.boolean().optional(),
});

export const accessTokenBody = z.object({ git_access_token: z.string().trim().min(1).max(1000).nullable() });
export const accessTokenResponse = z.object({ has_git_access_token: z.boolean() });
export const userIdParams = z.object({ id });
export const accountParams = z.object({ account: z.string().trim().min(1).max(64) });

export const changeDefaultOrganizationBody = z.object({ organization_id: id });

// The workspace ("account") calls of user/account/{ws} and the user's own standing on this server.

/** Where software environments are kept: by this server, in its data directory and package index. */
export const REGISTRY_TYPES = ['local', 'ecr', 'docker_hub', 'gar', 'acr'] as const;

export const registrySchema = z.object({
  type: z.enum(REGISTRY_TYPES).describe('`local`: environments are kept by this server.'),
  uri: z.string().nullable(),
  package_index_url: z.string().describe('The workspace’s own package index (pip, with an API token).'),
  detail: z.string(),
});

export const registryBody = z.object({
  type: z.enum(REGISTRY_TYPES),
  uri: text(500).optional(),
  region: text(64).optional(),
  namespace: text(200).optional(),
  username: text(200).optional(),
  access_token: z.string().max(4000).optional(),
});

export const accountPublicSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  organization_name: z.string(),
  is_personal: z.boolean(),
});

export const prometheusCredentialsSchema = z.object({
  available: z.boolean().describe('False: this server runs no Prometheus.'),
  url: z.string().nullable(),
  username: z.string().nullable(),
  password: z.string().nullable(),
  detail: z.string(),
  metrics_url: z
    .string()
    .describe('Where this workspace’s cluster metrics are read instead (add a cluster id).'),
});

export const accountPatchBody = z
  .object({
    name: nameField('Workspace name is required').optional(),
    avatar_url: z
      .string()
      .trim()
      .max(2000)
      .regex(/^https?:\/\/\S+$/i, 'Enter an http(s) URL.')
      .nullable()
      .optional(),
    credit_limit: creditLimitField.optional(),
  })
  .strict();

export const sourceIpSchema = z.object({
  ip: z.string().describe('The address this server sees the request come from.'),
});

export const hostedStandingSchema = z.object({
  activated: z.boolean(),
  account: z.string().nullable().describe('The workspace the user’s clusters run in by default.'),
  detail: z.string(),
});

export const hostedApprovalSchema = z.object({
  approved: z.boolean(),
  reason: z.string(),
});
