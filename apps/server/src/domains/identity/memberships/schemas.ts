import { id, z } from '../../../http/zod.js';

/**
 * What organization members and invites share: a role in the organization and a row of access,
 * limits and admin rights in each workspace (members have them, invites grant them on accepting).
 */

/** The organization a membership or invite belongs to, in paths. */
export const organizationParams = z.object({ organization_id: id });

/** New members' limits in each workspace. */
export const DEFAULT_CORE_LIMIT = 1000;
export const DEFAULT_CREDIT_LIMIT = 100000;
const LIMIT_MAX = 2_147_483_647;

/** A monthly credit limit; null is no limit, 0 allows nothing. */
export const creditLimitField = z
  .number({ error: 'A credit limit is required' })
  .int()
  .min(0, 'Credit limit must be greater than or equal to 0')
  .max(LIMIT_MAX)
  .nullable();
export const coreLimitField = z
  .number()
  .int()
  .min(0, 'Core limit must be greater than or equal to 0')
  .max(LIMIT_MAX);

export const roleSchema = z.enum(['admin', 'member']);

/** One workspace of a member or invite: access is given by listing it. */
export const workspaceRowInput = z.object({
  /** The existing row's id when editing; rows are matched by workspace_id. */
  id: id.optional(),
  workspace_id: id,
  is_admin: z.boolean().default(false),
  core_limit: coreLimitField.default(DEFAULT_CORE_LIMIT),
  credit_limit: creditLimitField.default(DEFAULT_CREDIT_LIMIT),
});
export type WorkspaceRowInput = z.infer<typeof workspaceRowInput>;
