import { text, z } from '../../../http/zod.js';

export const tokenCreateBody = z.object({
  label: text(255).nullish(),
  /** ISO date or date-time; null or absent means the token never expires. */
  expiry: z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'Enter a valid date/time.' })
    .nullish(),
});

export const pendingTokenBody = z
  .object({ label: text(255).nullish() })
  .nullish()
  .transform((body) => body ?? {});

export const tokenSchema = z.object({
  identifier: z.string(),
  label: z.string(),
  created: z.string(),
  expiry: z.string().nullable(),
  expired: z.boolean(),
  revoked: z.boolean(),
  last_used: z.string().nullable(),
});

export const createdTokenSchema = tokenSchema.extend({
  /** The secret, shown this once. */
  token: z.string(),
});

export const pendingTokenSchema = z.object({
  identifier: z.string(),
  token: z.string(),
  label: z.string(),
  created: z.string(),
  /** When the pending request lapses unless a signed-in user activates it. */
  expiry: z.string(),
  /** What the terminal prints and the person approving types on the activate-token page. */
  user_code: z.string(),
});

export const activateTokenBody = z.object({
  /** The code the terminal printed, as typed (case, spaces and dashes do not matter). */
  user_code: text(32).min(1, { error: 'Type the code shown in your terminal.' }),
});

export const identifierParams = z.object({ identifier: z.string().trim().min(1).max(32) });
export const idParams = z.object({ id: z.string().trim().min(1).max(32) });
