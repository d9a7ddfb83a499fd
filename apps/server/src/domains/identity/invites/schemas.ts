import { id, z } from '../../../http/zod.js';
import { coreLimitField, creditLimitField, roleSchema, workspaceRowInput } from '../memberships/schemas.js';

export const workspaceInviteSchema = z.object({
  id: z.number().int(),
  workspace_id: z.number().int(),
  core_limit: z.number().int(),
  credit_limit: z.number().int().nullable(),
  is_admin: z.boolean(),
  email: z.string(),
  organization_invite_id: z.number().int(),
});

export const inviteSchema = z.object({
  id: z.number().int(),
  expiration: z.string(),
  /** Past its expiration: it can no longer be accepted, only resent or deleted. */
  expired: z.boolean(),
  organization_id: z.number().int(),
  role: roleSchema,
  invite: z.object({ email: z.string(), created: z.string() }),
  workspace_invites: z.array(workspaceInviteSchema),
  organization_invite_id: z.number().int(),
});

export const workspaceInviteListItem = workspaceInviteSchema.extend({
  expiration: z.string(),
  expired: z.boolean(),
});

export const inviteParams = z.object({ invite_id: id });
export const workspaceIdParams = z.object({ workspace_id: id });

export const updateInviteBody = z.object({
  role: roleSchema.optional(),
  workspaces: z.array(workspaceRowInput).max(500).optional(),
});

export const updateWorkspaceInviteBody = z.object({
  is_admin: z.boolean().optional(),
  core_limit: coreLimitField.optional(),
  credit_limit: creditLimitField.optional(),
});

export const inviteTokenParams = z.object({ token: z.string().trim().min(1).max(128) });

/** An invitation as its mailed link shows it to the invited person (no ids). */
export const invitePreviewSchema = z.object({
  organization: z.string(),
  /** Who sent it; null when that account is gone. */
  inviter: z.string().nullable(),
  email: z.string(),
  workspaces: z.array(z.string()),
  expiration: z.string(),
});
