import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { itemsOf, offsetQuery } from '../../../http/pagination.js';
import { id, text, z } from '../../../http/zod.js';
import { workspaceOf } from '../../identity/index.js';
import { instanceLogsQuery, logRowSchema } from '../logs/schemas.js';
import { instanceLogLines } from '../logs/service.js';
import { presentInstance } from '../present.js';
import { instanceSchema } from '../schemas.js';
import { findInstance, listInstances } from './service.js';

const tags = ['instances'];
const reader = { auth: 'user', workspace: 'read' } as const;
const base = '/api/v2/instances/:account';
const accountParams = z.object({ account: text(64) });

export function registerInstanceRoutes(app: App, { db }: Deps): void {
  app.get(
    `${base}/`,
    {
      config: reader,
      schema: {
        tags,
        params: accountParams,
        querystring: offsetQuery,
        response: { 200: itemsOf(instanceSchema) },
      },
    },
    async (request) => listInstances(db, workspaceOf(request).workspace.id, request.query),
  );

  app.get(
    `${base}/id/:pk`,
    {
      config: reader,
      schema: { tags, params: accountParams.extend({ pk: id }), response: { 200: instanceSchema } },
    },
    async (request) =>
      presentInstance(
        await findInstance(db, workspaceOf(request).workspace.id, {
          id: request.params.pk,
        }),
      ),
  );

  app.get(
    `${base}/id/:instance_id/logs`,
    {
      config: reader,
      schema: {
        tags,
        params: accountParams.extend({ instance_id: id }),
        querystring: instanceLogsQuery,
        response: { 200: z.array(logRowSchema) },
      },
    },
    async (request) => {
      const found = await findInstance(db, workspaceOf(request).workspace.id, {
        id: request.params.instance_id,
      });
      return instanceLogLines(db, found.id, request.query);
    },
  );

  app.get(
    `${base}/instance/:instance_name/logs`,
    {
      config: reader,
      schema: {
        tags,
        params: accountParams.extend({ instance_name: text(200) }),
        querystring: instanceLogsQuery,
        response: { 200: z.array(logRowSchema) },
      },
    },
    async (request) => {
      const found = await findInstance(db, workspaceOf(request).workspace.id, {
        name: request.params.instance_name,
      });
      return instanceLogLines(db, found.id, request.query);
    },
  );
}
