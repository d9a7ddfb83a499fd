import { id, z } from '../../http/zod.js';

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
