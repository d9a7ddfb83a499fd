import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { workspaceAccess } from '../../identity/access/workspace.js';
import { backendOptionsSchema, workspaceParams } from './schemas.js';

/**
 * How a workspace's clusters run, for clients: established clients ask on every cluster create
 * (and give up on a 404) to choose their defaults.
 */
export function registerBackendOptionRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/v1/:account/backend_options/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['clusters'],
        description: "The backend the workspace's new clusters run on, as clients choose defaults by it.",
        params: workspaceParams,
        response: { 200: backendOptionsSchema },
      },
    },
    async (request) => {
      const access = await workspaceAccess(deps.db, currentUser(request), request.params.account);
      const backend = await deps.backends.forWorkspace(access.workspace.id);
      const { capabilities } = backend;
      return {
        ...backend.describeSelf(),
        capabilities: { ...capabilities, builds: [...capabilities.builds] },
      };
    },
  );
}
