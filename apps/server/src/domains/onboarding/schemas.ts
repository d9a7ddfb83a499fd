import { offsetQuery } from '../../http/pagination.js';
import { queryBool, text, z } from '../../http/zod.js';
import { FLAG_NAMES } from './catalog.js';

export const interactionTypeSchema = z.object({ name: z.string(), expired: z.boolean() });
export const interactionSchema = z.object({
  id: z.number().int(),
  interaction_type: z.string(),
  created: z.string(),
});
export const interactionBody = z.object({ interaction_type: z.string().trim().min(1).max(100) });

export const flagName = z.enum(FLAG_NAMES);
export const flagSchema = z.object({ name: z.string(), completed: z.boolean() });
export const flagParams = z.object({ name: flagName });
export const flagBody = z.object({ completed: z.boolean() });
export const flagsQuery = z.object({
  name: z
    .union([flagName, z.array(flagName).max(FLAG_NAMES.length)])
    .optional()
    .transform((v) => (v === undefined ? [...FLAG_NAMES] : Array.isArray(v) ? v : [v])),
});

export const getStartedSchema = z.object({
  completed: z.boolean(),
  data: z.record(z.string(), z.unknown()),
});
export const getStartedBody = z.object({
  completed: z.boolean().optional(),
  data: z
    .record(z.string().max(100), z.unknown())
    .refine((d) => JSON.stringify(d).length <= 10_000, 'Ensure this field has no more than 10000 characters.')
    .optional(),
});

/** What clients report about their own actions; the Python client needs a 2xx to go on. */
export const clientInteractionBody = z.object({
  action: text(200).min(1),
  version: z.number().int().min(0).max(1000).nullish(),
  success: z.boolean().nullish(),
  cumulus_version: text(30).nullish(),
  coiled_version: text(30).nullish(),
  /** Who reports; by default `python` when a client version is sent, else `console`. */
  source: text(50).min(1).nullish(),
  error_message: text(10_000).nullish(),
  /** The exception's class; by default read from the start of error_message (`ValueError: ...`). */
  error_class: text(200).nullish(),
  additional_text: text(10_000).nullish(),
  additional_data: z
    .unknown()
    .refine(
      (d) => d === undefined || JSON.stringify(d).length <= 50_000,
      'Ensure this field is smaller than 50 kB.',
    )
    .optional(),
});

export const bannerSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  level: z.string(),
  start: z.string(),
  end: z.string().nullable(),
});

/** The filters of `interactions/user-interactions` (staff), in the spec's order. */
export const USER_INTERACTION_KEYS = [
  'account',
  'organization',
  'user',
  'timestamp',
  'action',
  'version',
  'source',
  'success',
  'error_message',
  'error_class',
  'is_staff',
] as const;
/** The filters `key/values` suggests values for (the others are free text, times or booleans). */
export const VALUE_KEYS = [
  'account',
  'organization',
  'user',
  'action',
  'version',
  'source',
  'error_class',
] as const;

export const userInteractionsQuery = offsetQuery.extend({
  account: text(100).min(1).optional().describe('A workspace slug (or id).'),
  organization: text(100).min(1).optional().describe('An organization id or name.'),
  user: text(254).min(1).optional().describe('A user id, username or email.'),
  timestamp: z
    .string()
    .trim()
    .max(40)
    // A `+` sent unencoded in a query string arrives as a space.
    .transform((v) => v.replace(' ', '+'))
    .pipe(z.union([z.iso.datetime({ offset: true }), z.iso.date()]))
    .optional()
    .describe('Only interactions at or after this time (ISO 8601, or a date).'),
  action: text(200).min(1).optional(),
  version: z.coerce.number().int().min(0).max(1000).optional(),
  source: text(50).min(1).optional(),
  success: queryBool.optional(),
  error_message: text(1000).min(1).optional().describe('Error messages containing this text.'),
  error_class: text(200).min(1).optional(),
  is_staff: queryBool.optional().describe("Only staff users' interactions (true) or only others' (false)."),
});

const brief = z.object({ id: z.number().int(), name: z.string() });
export const userInteractionSchema = z.object({
  id: z.number().int(),
  timestamp: z.string(),
  action: z.string(),
  version: z.number().int().nullable(),
  success: z.boolean().nullable(),
  source: z.string(),
  client_version: z.string().nullable(),
  error_message: z.string().nullable(),
  error_class: z.string().nullable(),
  additional_text: z.string().nullable(),
  additional_data: z.unknown(),
  user: z
    .object({ id: z.number().int(), username: z.string(), email: z.string(), is_staff: z.boolean() })
    .nullable(),
  account: brief.extend({ slug: z.string() }).nullable(),
  organization: brief.nullable(),
});

export const userInteractionKeysQuery = z.object({
  query: text(100).default('').describe('Keys starting with this text.'),
});
export const userInteractionValuesQuery = z.object({
  key: z.enum(VALUE_KEYS),
  starts_with: text(200).default(''),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const stringItems = z.object({ items: z.array(z.string()), count: z.number().int() });

export const userInteractionsHelloSchema = z.object({
  detail: z.string(),
  total: z.number().int(),
  last_day: z.number().int(),
  failures_last_day: z.number().int(),
  latest: z.string().nullable(),
});
