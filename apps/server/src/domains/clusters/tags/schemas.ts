import { offsetQuery } from '../../../http/pagination.js';
import { id, queryBool, text, z } from '../../../http/zod.js';
import { alertSchema } from '../logs/schemas.js';
import { tagFilter } from '../schemas.js';

/** The scope filters of list calls (access/scopes.ts): the first given wins. */
const scopeFilters = {
  account: text(64).optional(),
  organization: id.optional(),
  user: id.optional(),
  compound_scope: text(64).optional(),
  custom_staff_scope: text(64).optional(),
};

export const labelsQuery = offsetQuery.extend({
  ...scopeFilters,
  system_tags: queryBool
    .default(false)
    .describe('Also the tags Cumulus and clients set themselves (`cumulus-*`, `coiled-*`).'),
  starts_with: text(100).optional(),
});

export const valuesQuery = offsetQuery.extend({
  ...scopeFilters,
  key: text(100).optional().describe('Only this tag’s values.'),
  starts_with: text(100).optional().describe('Only values starting with this text (any case).'),
});

export const alertContentsQuery = offsetQuery.extend({
  ...scopeFilters,
  tags: tagFilter.describe('Only clusters with these tags: `key` or `key:value`, comma separated.'),
  min_level: z.coerce.number().int().min(0).max(100).default(0).describe('30 warning, 40 error.'),
});

export const labelSchema = z.object({
  key: z.string(),
  system: z.boolean().describe('Set by Cumulus or a client (`cumulus-*`, `coiled-*`), not by a user.'),
  cluster_count: z.number().int(),
});

export const tagValueSchema = z.object({
  key: z.string(),
  value: z.string(),
  system: z.boolean(),
  cluster_count: z.number().int(),
});

/** An alert of a tagged cluster: `message` is markdown (it links to the cluster). */
export const tagAlertSchema = alertSchema.extend({
  cluster_id: z.number().int(),
  cluster_name: z.string(),
  account: z.string().describe('The workspace’s slug.'),
  tags: z.record(z.string(), z.string()),
});
