import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { itemsOf, offsetQuery } from '../../../http/pagination.js';
import { workspaceAccess } from '../../identity/index.js';
import { instanceSpecSchema, specParams, workspaceParams } from './schemas.js';
import { findInstanceSpec, listInstanceSpecs } from './service.js';

const tags = ['instances'];
const user = { auth: 'user' } as const;
const base = '/api/v2/instance_specs/account/:account';

export function registerInstanceSpecRoutes(app: App, { db }: Deps): void {
  app.get(
    `${base}/`,
    {
      config: user,
      schema: {
        tags,
        description:
          "The machines of the workspace's clusters (one spec per cluster and role), newest first.",
        params: workspaceParams,
        querystring: offsetQuery,
        response: { 200: itemsOf(instanceSpecSchema) },
      },
    },
    async (request) => {
      const access = await workspaceAccess(db, currentUser(request), request.params.account);
      return listInstanceSpecs(db, access.workspace.id, request.query);
    },
  );

  app.get(
    `${base}/id/:pk`,
    { config: user, schema: { tags, params: specParams, response: { 200: instanceSpecSchema } } },
    async (request) => {
      const access = await workspaceAccess(db, currentUser(request), request.params.account);
      return findInstanceSpec(db, access.workspace.id, request.params.pk);
    },
  );
}
