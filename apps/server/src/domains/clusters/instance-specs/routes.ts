import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { itemsOf, offsetQuery } from '../../../http/pagination.js';
import { workspaceOf } from '../../identity/index.js';
import { instanceSpecSchema, specParams, workspaceParams } from './schemas.js';
import { findInstanceSpec, listInstanceSpecs } from './service.js';

const tags = ['instances'];
const reader = { auth: 'user', workspace: 'read' } as const;
const base = '/api/v2/instance_specs/account/:account';

export function registerInstanceSpecRoutes(app: App, { db }: Deps): void {
  app.get(
    `${base}/`,
    {
      config: reader,
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
      const access = workspaceOf(request);
      return listInstanceSpecs(db, access.workspace.id, request.query);
    },
  );

  app.get(
    `${base}/id/:pk`,
    { config: reader, schema: { tags, params: specParams, response: { 200: instanceSpecSchema } } },
    async (request) => {
      const access = workspaceOf(request);
      return findInstanceSpec(db, access.workspace.id, request.params.pk);
    },
  );
}
