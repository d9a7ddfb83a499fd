import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { usage } from './queries.js';
import { usageAnswer, usageQuery } from './schemas.js';

const tags = ['usage'];
const user = { auth: 'user' } as const;

export function registerUsageRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/v2/usage/',
    {
      config: user,
      schema: {
        tags,
        description:
          'Usage in a unit per period and group over the dates `start`..`end` (inclusive, UTC), within what the caller may see.',
        querystring: usageQuery,
        response: { 200: usageAnswer },
      },
    },
    async (request) => usage(deps.db, currentUser(request), request.query),
  );
}
