import { offsetQuery } from '../../../http/pagination.js';
import { id, text, z } from '../../../http/zod.js';
import { roleSchema, workspaceRowInput } from '../memberships/schemas.js';
import { planGatesFields } from './plan-fields.js';
import { organizationBrief } from './present.js';

/** Workspace and organization names: 4 to 34 characters. */
export const NAME_MIN = 4;
export const NAME_MAX = 34;
export const nameField = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .min(NAME_MIN, { error: `Must be at least ${NAME_MIN} characters`, abort: true })
    .max(NAME_MAX, `Must be less than ${NAME_MAX} characters`);

const workspaceRows = z.array(workspaceRowInput).max(500);

export const addMembershipBody = z.object({
  email_or_username: z
    .string({ error: 'Username or Email is required' })
    .trim()
    .min(1, 'Username or Email is required')
    .max(254),
  organization_id: id,
  role: roleSchema.default('member'),
  workspaces: workspaceRows.default([]),
});

export const updateMembershipBody = z.object({
  role: roleSchema.optional(),
  /** The member's rows in the workspaces the caller administers; omitted: unchanged. */
  workspaces: workspaceRows.optional(),
});

export const createOrganizationBody = z.object({ name: nameField('Organization name is required') });

export const membershipParams = z.object({ membership_id: id });

export const organizationListQuery = offsetQuery.extend({
  search: text(100).optional(),
});
export const staffListQuery = organizationListQuery.extend({
  custom_group: text(100).optional(),
});
export const staffValuesQuery = z.object({
  starts_with: text(100).default(''),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const memberUser = z.object({
  id: z.number().int(),
  username: z.string(),
  full_name: z.string(),
  preferred_name: z.string(),
  profile: z.object({ avatar_url: z.string().nullable() }),
});

export const workspaceRowSchema = z.object({
  id: z.number().int(),
  workspace_id: z.number().int(),
  is_admin: z.boolean(),
  /** Null: no limit. */
  credit_limit: z.number().int().nullable(),
  core_limit: z.number().int(),
});

export const organizationMembershipSchema = z.object({
  id: z.number().int(),
  user: memberUser,
  role: roleSchema,
  organization_id: z.number().int(),
  organization: organizationBrief,
  workspace_memberships: z.array(workspaceRowSchema),
  displayed_pro_trial_expiration: z.string().nullable(),
});

const planFields = {
  feature_tier: z.enum(['essentials', 'free', 'basic', 'professional', 'enterprise']),
  member_limit: z.number().int().nullable(),
  workspace_limit: z.number().int().nullable(),
  seat_limit: z.number().int().nullable(),
};

/** An organization in lists: what a picker shows, with the caller's role in it. */
export const organizationSummarySchema = organizationBrief.extend({
  ...planFields,
  role: roleSchema.nullable(),
  created: z.string(),
});

export const organizationSchema = organizationBrief.extend({
  ...planFields,
  created: z.string(),
  member_set: z.array(z.object({ id: z.number().int(), user: memberUser, role: roleSchema })),
  /** Staff labels; empty for everyone else. */
  custom_groups: z.array(z.string()),
  // The organization's billing and the rest of its plan (pricing/{org} answers them with more).
  active_program_id: z.number().int(),
  node_limit: z.number().int().nullable(),
  credit_allotment: z.number().int(),
  credit_limit: z.number().int().nullable(),
  dollars_spend_limit: z.number().nullable(),
  spend_limit_should_stop_instances: z.boolean(),
  ...planGatesFields,
  /** When credits renew and limits reset: the 1st of next month (UTC). */
  renew_date: z.string(),
  /** Empty, stripe, aws or invoice. */
  billing_method: z.string(),
  cumulus_credit_value: z.number(),
  subscription_status: z.string().nullable(),
  trial_expiration: z.string().nullable(),
  next_phase_tier: planFields.feature_tier.nullable(),
  cancel_at: z.string().nullable(),
  /** What the plan limits count: members, pending invites and workspaces. */
  member_count: z.number().int(),
  pending_invite_count: z.number().int(),
  workspace_count: z.number().int(),
});

export const alreadyMemberSchema = z.object({
  detail: z.string(),
  code: z.string(),
  membership_id: z.number().int(),
});
