import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { itemsOf, offsetQuery } from '../../../http/pagination.js';
import { id, text, z } from '../../../http/zod.js';
import { workspaceAccess } from '../../identity/index.js';
import { instanceLogsQuery, logRowSchema } from '../logs/schemas.js';
import { instanceLogLines } from '../logs/service.js';
import { presentInstance } from '../present.js';
import { instanceSchema } from '../schemas.js';
import { findInstance, listInstances } from './service.js';

const tags = ['instances'];
const user = { auth: 'user' } as const;
const base = '/api/v2/instances/:account';
const accountParams = z.object({ account: text(64) });

export function registerInstanceRoutes(app: App, { db }: Deps): void {
  const workspaceOf = async (request: Parameters<typeof currentUser>[0], slug: string) =>
    (await workspaceAccess(db, currentUser(request), slug)).workspace;

  app.get(
    `${base}/`,
    {
      config: user,
      schema: {
        tags,
        params: accountParams,
        querystring: offsetQuery,
        response: { 200: itemsOf(instanceSchema) },
      },
    },
    async (request) =>
      listInstances(db, (await workspaceOf(request, request.params.account)).id, request.query),
  );

  app.get(
    `${base}/id/:pk`,
    {
      config: user,
      schema: { tags, params: accountParams.extend({ pk: id }), response: { 200: instanceSchema } },
    },
    async (request) =>
      presentInstance(
        await findInstance(db, (await workspaceOf(request, request.params.account)).id, {
          id: request.params.pk,
        }),
      ),
  );

  app.get(
    `${base}/id/:instance_id/logs`,
    {
      config: user,
      schema: {
        tags,
        params: accountParams.extend({ instance_id: id }),
        querystring: instanceLogsQuery,
        response: { 200: z.array(logRowSchema) },
      },
    },
    async (request) => {
      const found = await findInstance(db, (await workspaceOf(request, request.params.account)).id, {
        id: request.params.instance_id,
      });
      return instanceLogLines(db, found.id, request.query);
    },
  );

  app.get(
    `${base}/instance/:instance_name/logs`,
    {
      config: user,
      schema: {
        tags,
        params: accountParams.extend({ instance_name: text(200) }),
        querystring: instanceLogsQuery,
        response: { 200: z.array(logRowSchema) },
      },
    },
    async (request) => {
      const found = await findInstance(db, (await workspaceOf(request, request.params.account)).id, {
        name: request.params.instance_name,
      });
      return instanceLogLines(db, found.id, request.query);
    },
  );
}
