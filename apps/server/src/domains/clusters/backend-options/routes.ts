import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { accountParams, workspaceOf } from '../../identity/index.js';
import { accountOptionsSchema, backendOptionsSchema, workspaceParams } from './schemas.js';
import { accountOptions } from './workspace-options.js';

/**
 * How a workspace's clusters run, for clients: established clients ask on every cluster create
 * (and give up on a 404) to choose their defaults.
 */
export function registerBackendOptionRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/v1/:account/backend_options/',
    {
      config: { auth: 'user', workspace: 'read' },
      schema: {
        tags: ['clusters'],
        description: "The backend the workspace's new clusters run on, as clients choose defaults by it.",
        params: workspaceParams,
        response: { 200: backendOptionsSchema },
      },
    },
    async (request) => {
      const access = workspaceOf(request);
      const backend = await deps.backends.forWorkspace(access.workspace.id);
      const { capabilities } = backend;
      const builds = (await backend.buildsFor?.(access.workspace.id)) ?? capabilities.builds;
      return { ...backend.describeSelf(), capabilities: { ...capabilities, builds: [...builds] } };
    },
  );

  app.get(
    '/api/v2/user/account/:account/options',
    {
      config: { auth: 'user', workspace: 'read' },
      schema: { tags: ['users'], params: accountParams, response: { 200: accountOptionsSchema } },
    },
    async (request) => accountOptions(deps, workspaceOf(request)),
  );
}
