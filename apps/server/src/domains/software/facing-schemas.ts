import { text, z } from '../../http/zod.js';

/** What a build machine says of its build (`PATCH .../phone-home`): its log, state and result. */
export const phoneHome = z.object({
  state: z.enum(['building', 'built', 'error']).optional(),
  reason: z.string().max(4000).optional(),
  logs: z.array(z.string().max(10_000)).max(2000).optional(),
  lockfile: z.string().max(2_000_000).optional(),
  packages: z
    .array(
      z.object({
        name: text(200).min(1),
        version: text(100).min(1),
        source: z.enum(['index', 'file', 'system']).default('index'),
        sha256: z.string().max(64).nullable().default(null),
      }),
    )
    .max(10_000)
    .optional(),
  size_bytes: z.number().int().min(0).optional(),
  location: z.string().max(2000).optional(),
});
export type PhoneHome = z.infer<typeof phoneHome>;
