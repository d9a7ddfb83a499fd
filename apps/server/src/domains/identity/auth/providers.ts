import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { ApiError } from '../../../http/errors.js';
import { z } from '../../../http/zod.js';
import { keyResponse } from './schemas.js';

const PROVIDER_NAMES: Record<string, string> = { github: 'GitHub', google: 'Google' };

/**
 * Sign-in through GitHub, Google and SSO. This server has no identity provider configured yet, so
 * each call answers that plainly (the console shows it) instead of pretending to sign anyone in.
 */
export function registerProviderRoutes(app: App, _deps: Deps): void {
  const tags = ['auth'];
  const notConfigured = (name: string) =>
    new ApiError(400, {
      non_field_errors: [`Sign-in with ${name} is not configured on this server.`],
      detail: `Sign-in with ${name} is not configured on this server.`,
      code: 'PROVIDER_NOT_CONFIGURED',
    });

  app.post(
    '/users/:provider/get_token',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        params: z.object({ provider: z.string().trim().min(1).max(40) }),
        body: z.object({ code: z.string().trim().min(1).max(2000) }),
        response: { 200: keyResponse.extend({ existing: z.boolean() }) },
      },
    },
    async (request) => {
      const name = PROVIDER_NAMES[request.params.provider.toLowerCase()];
      if (!name) throw new ApiError(404, { detail: 'Not found.', code: 'NOT_FOUND' });
      throw notConfigured(name);
    },
  );

  app.get(
    '/api/v2/workos/login',
    { config: { auth: 'none' }, schema: { tags, hide: true } },
    async (_request, reply) => reply.redirect('/login?open=true&sso=not-configured', 302),
  );

  app.get(
    '/api/v2/workos/success',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        querystring: z.object({ code: z.string().trim().min(1).max(2000) }),
        response: { 200: keyResponse.extend({ existing: z.boolean() }) },
      },
    },
    async () => {
      throw notConfigured('SSO');
    },
  );
}
