import { z } from '../../../http/zod.js';

export const ssoDomainParams = z.object({
  organization_id: z.coerce.number().int().positive(),
  domain_id: z.coerce.number().int().positive(),
});
export const staffDomainParams = z.object({ domain_id: z.coerce.number().int().positive() });

export const ssoConnectionBody = z.object({
  issuer: z
    .url()
    .max(500)
    .describe(
      "The provider's OpenID issuer (its discovery document is at /.well-known/openid-configuration): an https address on the public internet, unless the server's operator allowed it (CUMULUS_SSO_ALLOWED_ISSUERS).",
    ),
  client_id: z.string().trim().min(1).max(255),
  client_secret: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe('Sealed at rest and never returned; omit it to keep the secret already set.'),
  join_workspace_ids: z
    .array(z.number().int().positive())
    .max(50)
    .default([])
    .describe("The organization's workspaces a person joins as member at their first sign-in through it."),
});

export const ssoDomainBody = z.object({
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .regex(
      /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
      'Enter a domain such as example.com',
    ),
});

export const requireSsoBody = z.object({ require_sso: z.boolean() });

export const ssoDomainSchema = z.object({
  id: z.number(),
  domain: z.string(),
  txt_name: z.string().describe('Where the TXT record goes (the domain itself).'),
  txt_value: z.string().describe('What the TXT record must hold.'),
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  verified_by: z.enum(['dns', 'staff']).nullable(),
});

export const organizationSsoSchema = z.object({
  connection: z
    .object({
      issuer: z.string(),
      client_id: z.string(),
      client_secret_set: z.boolean(),
      join_workspace_ids: z.array(z.number()),
    })
    .nullable(),
  domains: z.array(ssoDomainSchema),
  require_sso: z.boolean(),
  redirect_uri: z.string().describe('The redirect URI to register with the provider.'),
});

export const pendingDomainsSchema = z.array(
  ssoDomainSchema.extend({ organization_id: z.number(), organization: z.string() }),
);
