import { z } from '../../../http/zod.js';
import { keyResponse } from '../auth/schemas.js';

const code = z.string().trim().min(1).max(2000);
/** The `state` the provider sent back: it must be the one this browser's sign-in started with. */
const state = z.string().trim().min(1).max(200);

export const providerParams = z.object({ provider: z.string().trim().min(1).max(40) });
/** The provider's `iss` answer parameter (RFC 9207), passed on by the callback page when present. */
const iss = z.string().trim().max(500).optional();
export const providerTokenBody = z.object({ code, state, iss });
/** The work email whose domain names the organization's own connection (else the server-wide SSO). */
export const ssoLoginQuery = z.object({ email: z.email().max(254).optional() });
export const ssoSuccessQuery = z.object({ code, state, iss });
export const signInResponse = keyResponse.extend({
  existing: z.boolean().describe('false: this sign-in created the user (the console shows the welcome).'),
});

export const identityParams = z.object({ identity_id: z.coerce.number().int().positive() });
export const identitiesResponse = z.array(
  z.object({
    id: z.number(),
    provider: z.enum(['sso', 'google', 'github']),
    name: z.string().describe('The provider as the login page names it.'),
    email: z.string(),
    created: z.string(),
    last_used: z.string().nullable(),
  }),
);

/** The token of a mailed link that proves the account (link-by-email.ts). */
export const linkConfirmBody = z.object({
  token: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{48}$/),
});
export const linkCheckResponse = z.object({
  provider: z.enum(['sso', 'google', 'github']),
  /** The provider's name as the login page shows it. */
  name: z.string(),
  /** The address the provider vouched for, and the account it would be linked to. */
  email: z.string(),
  username: z.string(),
});
export const linkConfirmResponse = z.object({
  detail: z.string(),
  key: z
    .string()
    .nullable()
    .describe('A session for the account the link proved; null when it may not sign in this way.'),
});
