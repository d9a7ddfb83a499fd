import { text, z } from '../../../http/zod.js';

/** One DNS label: what goes before the dashboard domain. */
export const subdomain = text(63)
  .toLowerCase()
  .regex(
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/,
    'Enter a subdomain of letters, digits and hyphens (not at either end), at most 63 characters.',
  );

export const workspaceParams = z.object({ account: text(64) });
export const certificateParams = z.object({ account: text(64), subdomain });
export const certificateRequest = z.object({ subdomain });

/**
 * Statuses in the words clients know: `ready` and `continue`
 * mean go ahead, `in use` and `error` mean give up, anything else means ask again.
 */
export const CERTIFICATE_STATUSES = ['ready', 'continue', 'pending', 'in use', 'error'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

export const certificateSchema = z.object({
  subdomain: z.string(),
  status: z.enum(CERTIFICATE_STATUSES),
  message: z.string(),
});
