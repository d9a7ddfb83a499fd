import { z } from '../../../http/zod.js';

/** `GET /api/v2/deployment`: what this server offers, for pages shown before anyone signs in. */
export const deploymentSchema = z.object({
  public_url: z.string().describe('The address users and clients reach this server at (CUMULUS_PUBLIC_URL).'),
  version: z.string(),
  mail: z.object({
    delivery: z
      .enum(['smtp', 'server-log'])
      .describe(
        '`smtp`: mail is sent; `server-log`: no mail server is configured, mail is printed in the server log.',
      ),
    detail: z.string().describe('Where a mail this server sends ends up, in a sentence a user can act on.'),
  }),
  links: z
    .object({
      support_email: z.string().nullable().describe('CUMULUS_SUPPORT_EMAIL; null: no Contact link.'),
      docs_url: z.string().describe('CUMULUS_DOCS_URL, else this server’s own documentation (/docs).'),
      community_url: z.string().nullable().describe('CUMULUS_COMMUNITY_URL; null: no community link.'),
      terms_url: z.string().nullable().describe('CUMULUS_TERMS_URL; null: no terms of service.'),
      book_demo_url: z.string().nullable().describe('CUMULUS_BOOK_DEMO_URL; null: no Book a demo link.'),
    })
    .describe('Where the console links outside itself; a null link is not shown.'),
  hosted_service: z
    .boolean()
    .describe(
      'CUMULUS_HOSTED_SERVICE: new users are asked how they heard of it and see what’s-new banners; false on a self-hosted install.',
    ),
  sign_in_providers: z
    .array(
      z.object({
        id: z.enum(['google', 'github', 'sso']),
        name: z.string(),
        authorize_url: z.string(),
      }),
    )
    .describe(
      'Sign-in providers configured on this server: the console shows a “Continue with {name}” button for each, which sends the browser to `authorize_url`.',
    ),
});

export type Deployment = z.infer<typeof deploymentSchema>;
