import { offsetQuery } from '../../http/pagination.js';
import { id, queryBool, text, z } from '../../http/zod.js';
import { clusterSummarySchema } from '../clusters/index.js';

export const unlockParams = z.object({ id });
export const unlockBody = z.object({ address: z.string().trim().max(100).optional() }).nullish();
export const unlockAnswer = z.object({ detail: z.string(), cleared: z.number().int() });

export const emailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created: z.string(),
  sent_at: z.string().nullable(),
});

export const staffUsersQuery = offsetQuery.extend({
  search: text(254).optional().describe('Part of a username, email or full name.'),
});
export const staffUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  full_name: z.string(),
  is_staff: z.boolean(),
  is_active: z.boolean().describe('False: locked by staff; the user cannot sign in or use a token.'),
  locked_out: z.boolean().describe('Too many failed sign-ins lately (cleared by `unlock`).'),
  should_see_notebook_page: z.boolean().describe('The console shows them the Notebooks page.'),
  email_verified: z.boolean(),
  date_joined: z.string(),
  last_login: z.string().nullable(),
});
export const staffUserParams = z.object({ id });
export const staffUserBody = z
  .object({
    is_staff: z.boolean().optional(),
    is_active: z.boolean().optional(),
    should_see_notebook_page: z.boolean().optional(),
  })
  .refine(
    (b) => b.is_staff !== undefined || b.is_active !== undefined || b.should_see_notebook_page !== undefined,
    'Send is_staff, is_active or should_see_notebook_page.',
  );

export const attentionQuery = offsetQuery.extend({
  seen: queryBool
    .default(false)
    .describe('Clusters staff have already marked seen (true) or not yet (false).'),
});
export const attentionClusterSchema = clusterSummarySchema.extend({
  reason: z.string(),
  staff_has_seen: z.boolean(),
  staff_seen_at: z.string().nullable(),
  staff_seen_by: z.object({ id: z.number().int(), username: z.string() }).nullable(),
});
