import { offsetQuery } from '../../../http/pagination.js';
import { id, text, z } from '../../../http/zod.js';
import { coreLimitField, creditLimitField } from '../memberships/schemas.js';
import { workspaceBrief } from '../organizations/present.js';
import { memberUser, nameField } from '../organizations/schemas.js';

export const workspaceMemberSchema = z.object({
  id: z.number().int(),
  user: memberUser,
  workspace_id: z.number().int(),
  is_admin: z.boolean(),
  core_limit: z.number().int(),
  /** Null: no limit. */
  credit_limit: z.number().int().nullable(),
});

export const workspaceSchema = workspaceBrief.extend({
  /** Workspace-wide monthly credit limit; null: none. */
  credit_limit: z.number().int().nullable(),
  created: z.string(),
  membership_set: z.array(workspaceMemberSchema),
});

export const createWorkspaceBody = z.object({
  name: nameField('Workspace name is required'),
  organization_id: id,
});

export const workspaceListQuery = offsetQuery.extend({
  organization_id: id.optional(),
  search: text(100).optional(),
});

export const workspaceLookupQuery = z.object({
  workspace_slug: z.string().trim().min(1).max(64).optional(),
  workspace_id: id.optional(),
  workspace_name: z.string().trim().min(1).max(64).optional(),
});

export const workspaceIdParams = z.object({ workspace_id: id });
export const workspaceParams = z.object({ workspace: z.string().trim().min(1).max(64) });
export const membershipParams = z.object({ membership_id: id });

export const updateWorkspaceBody = z.object({ credit_limit: creditLimitField });

export const updateWorkspaceMembershipBody = z.object({
  is_admin: z.boolean().optional(),
  core_limit: coreLimitField.optional(),
  credit_limit: creditLimitField.optional(),
});
