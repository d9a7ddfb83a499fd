import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { z } from '../../../http/zod.js';
import type { IdentityDeps } from '../../identity/index.js';
import { workspaceOf } from '../../identity/index.js';
import { clusterOf } from '../access.js';
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
/** Readers of the path's cluster (`cluster`) in its workspace (`account`). */
const ofCluster = { auth: 'user', cluster: { param: 'cluster' } } as const;
const base = '/api/v2/workers/account/:account';

export function registerWorkerRoutes(app: App, deps: IdentityDeps): void {
  const { db } = deps;

  app.get(
    `${base}/cluster/:cluster/`,
    {
      config: ofCluster,
      schema: {
        tags,
        params: workersParams,
        querystring: listWorkersQuery,
        response: { 200: z.array(workerSchema) },
      },
    },
    async (request) => {
      const { cluster } = clusterOf(request);
      return service.listWorkers(db, cluster.id, request.query);
    },
  );

  app.post(
    `${base}/cluster/:cluster/`,
    {
      config: ofCluster,
      schema: {
        tags,
        description: 'Adds `n_workers` workers.',
        params: workersParams,
        body: addWorkersBody,
        response: { 201: z.array(workerSchema) },
      },
    },
    async (request, reply) => {
      return reply
        .code(201)
        .send(await service.addWorkers(deps, currentUser(request), clusterOf(request), request.body));
    },
  );

  app.delete(
    `${base}/cluster/:cluster/`,
    {
      config: ofCluster,
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
      return service.removeWorkers(deps, currentUser(request), clusterOf(request), request.query);
    },
  );

  app.get(
    `${base}/id/:pk`,
    {
      config: { auth: 'user', workspace: 'read' },
      schema: { tags, params: workerParams, response: { 200: workerSchema } },
    },
    async (request) => {
      const access = workspaceOf(request);
      return service.getWorker(db, access.workspace.id, request.params.pk);
    },
  );
}
