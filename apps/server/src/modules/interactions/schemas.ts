import { text, z } from '../../http/zod.js';
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
  error_message: text(10_000).nullish(),
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
