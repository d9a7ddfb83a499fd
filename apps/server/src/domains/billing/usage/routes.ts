import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { accountParams, scopeOf, workspaceOf } from '../../identity/index.js';
import { workspaceUsage } from '../pricing/consumption.js';
import { usage } from './queries.js';
import { usageAnswer, usageQuery, usageSchema } from './schemas.js';

const tags = ['usage'];

export function registerUsageRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/v2/usage/',
    {
      config: { auth: 'user', scope: 'visible' },
      schema: {
        tags,
        description:
          'Usage in a unit per period and group over the dates `start`..`end` (inclusive, UTC), within what the caller may see.',
        querystring: usageQuery,
        response: { 200: usageAnswer },
      },
    },
    async (request) => usage(deps.db, scopeOf(request), request.query),
  );

  // On the wire a user call (`user/account/{ws}/usage`); what it answers is this month's usage.
  app.get(
    '/api/v2/user/account/:account/usage',
    {
      config: { auth: 'user', workspace: 'read' },
      schema: { tags: ['users'], params: accountParams, response: { 200: usageSchema } },
    },
    async (request) => {
      const access = workspaceOf(request);
      const used = await workspaceUsage(deps.db, access.workspace, access.user.id);
      return {
        ...used,
        credit_limit: access.membership?.creditLimit ?? null,
        workspace_credit_limit: access.workspace.creditLimit,
      };
    },
  );
}
