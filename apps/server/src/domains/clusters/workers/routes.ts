import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { z } from '../../../http/zod.js';
import { workspaceAccess } from '../../identity/index.js';
import { clusterAccess } from '../access.js';
import {
  addWorkersBody,
  listWorkersQuery,
  removedWorkersSchema,
  removeWorkersQuery,
  workerParams,
  workerSchema,
  workersParams,
} from './schemas.js';
import * as service from './service.js';

const tags = ['workers'];
const user = { auth: 'user' } as const;
const base = '/api/v2/workers/account/:account';

export function registerWorkerRoutes(app: App, deps: Deps): void {
  const { db } = deps;

  app.get(
    `${base}/cluster/:cluster/`,
    {
      config: user,
      schema: {
        tags,
        params: workersParams,
        querystring: listWorkersQuery,
        response: { 200: z.array(workerSchema) },
      },
    },
    async (request) => {
      const { cluster } = await clusterAccess(
        db,
        currentUser(request),
        request.params.account,
        request.params.cluster,
      );
      return service.listWorkers(db, cluster.id, request.query);
    },
  );

  app.post(
    `${base}/cluster/:cluster/`,
    {
      config: user,
      schema: {
        tags,
        description: 'Adds `n_workers` workers.',
        params: workersParams,
        body: addWorkersBody,
        response: { 201: z.array(workerSchema) },
      },
    },
    async (request, reply) => {
      const caller = currentUser(request);
      const target = await clusterAccess(db, caller, request.params.account, request.params.cluster);
      return reply.code(201).send(await service.addWorkers(deps, caller, target, request.body));
    },
  );

  app.delete(
    `${base}/cluster/:cluster/`,
    {
      config: user,
      schema: {
        tags,
        description:
          'Retires workers by `name` (repeated; the part after `<cluster name>-worker`), or down to `target`.',
        params: workersParams,
        querystring: removeWorkersQuery,
        response: { 200: removedWorkersSchema },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const target = await clusterAccess(db, caller, request.params.account, request.params.cluster);
      return service.removeWorkers(deps, caller, target, request.query);
    },
  );

  app.get(
    `${base}/id/:pk`,
    { config: user, schema: { tags, params: workerParams, response: { 200: workerSchema } } },
    async (request) => {
      const access = await workspaceAccess(db, currentUser(request), request.params.account);
      return service.getWorker(db, access.workspace.id, request.params.pk);
    },
  );
}
