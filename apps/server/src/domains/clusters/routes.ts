import type { App } from '../../http/app-types.js';
import { currentUser } from '../../http/auth.js';
import { itemsOf } from '../../http/pagination.js';
import { text, z } from '../../http/zod.js';
import { workspaceAccess } from '../identity/index.js';
import { clusterAccess, clusterAccessById } from './access.js';
import type { ClusterDeps } from './ports.js';
import { presentClusterState, presentDetails, presentSummaries } from './present.js';
import { clusterSize, clusterStates, listClusters, paginateClusters } from './queries.js';
import {
  clientEventBody,
  clusterDetailsSchema,
  clusterNameParams,
  clusterParams,
  clusterStateSchema,
  clusterSummarySchema,
  createClusterBody,
  createClusterResult,
  deleteClusterQuery,
  eventParams,
  listClustersQuery,
  nameLookupQuery,
  paginateQuery,
  sizeSchema,
  sshKeyQuery,
  sshKeySchema,
  staffSeenQuery,
  staffSeenSchema,
  statesQuery,
  statesSchema,
  workspaceParams,
} from './schemas.js';
import * as service from './service.js';
import { sshAccess } from './ssh.js';
import { markStaffSeen } from './staff-seen.js';

const tags = ['clusters'];
const user = { auth: 'user' } as const;
const base = '/api/v2/clusters/account/:account';

export function registerClusterRoutes(app: App, deps: ClusterDeps): void {
  const { db } = deps;
  const clusterOf = (
    request: { params: { account: string; pk: number } } & Parameters<typeof currentUser>[0],
  ) => clusterAccess(db, currentUser(request), request.params.account, request.params.pk);
  const one = (workspaceId: number, slug: string, name: string) =>
    new Map([[workspaceId, { id: workspaceId, slug, name }]]);

  app.post(
    `${base}/`,
    {
      config: user,
      schema: {
        tags,
        params: workspaceParams,
        body: createClusterBody,
        response: { 201: createClusterResult },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createCluster(deps, currentUser(request), request.params.account, request.body)),
  );

  app.get(
    `${base}/`,
    {
      config: user,
      schema: {
        tags,
        params: workspaceParams,
        querystring: listClustersQuery,
        response: { 200: z.array(clusterSummarySchema) },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const access = await workspaceAccess(db, caller, request.params.account);
      return listClusters(db, caller, access, request.query);
    },
  );

  app.get(
    `${base}/id/:pk`,
    { config: user, schema: { tags, params: clusterParams, response: { 200: clusterDetailsSchema } } },
    async (request) => {
      const { access, cluster } = await clusterAccess(
        db,
        currentUser(request),
        request.params.account,
        request.params.pk,
      );
      return presentDetails(db, deps.secrets, cluster, access.workspace, {
        userId: currentUser(request).id,
        publicUrl: deps.config.publicUrl,
        secret: deps.config.secret,
      });
    },
  );

  app.delete(
    `${base}/id/:pk`,
    {
      config: user,
      schema: {
        tags,
        description: 'Stops the cluster (or pauses it with `pause=1`), recording `reason`.',
        params: clusterParams,
        querystring: deleteClusterQuery,
        response: { 200: z.object({ id: z.number().int(), current_state: clusterStateSchema }) },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const target = await clusterAccess(db, caller, request.params.account, request.params.pk);
      const cluster = await service.stopCluster(deps, caller, target, request.query);
      return { id: cluster.id, current_state: presentClusterState(cluster) };
    },
  );

  app.get(
    `${base}/name/:name`,
    {
      config: user,
      schema: {
        tags,
        params: clusterNameParams,
        querystring: nameLookupQuery,
        response: { 200: clusterSummarySchema },
      },
    },
    async (request) => {
      const access = await workspaceAccess(db, currentUser(request), request.params.account);
      const cluster = await service.findByName(
        db,
        access.workspace.id,
        request.params.name,
        request.query.include_paused ?? false,
      );
      const [summary] = await presentSummaries(
        db,
        [cluster],
        one(access.workspace.id, access.workspace.slug, access.workspace.name),
      );
      return summary!;
    },
  );

  app.get(
    `${base}/id/:pk/state`,
    {
      config: user,
      schema: {
        tags,
        params: clusterParams,
        response: { 200: clusterStateSchema.extend({ id: z.number().int() }) },
      },
    },
    async (request) => {
      const { cluster } = await clusterOf(request);
      return { id: cluster.id, ...presentClusterState(cluster) };
    },
  );

  app.get(
    `${base}/id/:pk/states`,
    {
      config: user,
      schema: { tags, params: clusterParams, querystring: statesQuery, response: { 200: statesSchema } },
    },
    async (request) => {
      const { cluster } = await clusterOf(request);
      return clusterStates(db, cluster, request.query.start_time);
    },
  );

  app.get(
    `${base}/id/:pk/size`,
    { config: user, schema: { tags, params: clusterParams, response: { 200: sizeSchema } } },
    async (request) => {
      const { cluster } = await clusterOf(request);
      return clusterSize(db, cluster);
    },
  );

  app.get(
    '/api/v2/clusters/paginate',
    {
      config: user,
      schema: { tags, querystring: paginateQuery, response: { 200: itemsOf(clusterSummarySchema) } },
    },
    async (request) => paginateClusters(db, currentUser(request), request.query),
  );

  app.get(
    '/api/v2/clusters/paginate-notebook',
    {
      config: user,
      schema: {
        tags,
        description:
          'As `paginate`, for notebook clusters only: those tagged `cumulus-cluster-type: notebook` ' +
          '(or `coiled-cluster-type: notebook`).',
        querystring: paginateQuery,
        response: { 200: itemsOf(clusterSummarySchema) },
      },
    },
    async (request) => paginateClusters(db, currentUser(request), request.query, { notebooks: true }),
  );

  app.get(
    `${base}/id/:pk/ssh-key`,
    {
      config: user,
      schema: {
        tags,
        description:
          "The cluster's SSH key and scheduler (or `worker`) addresses. Readers get it as they get " +
          'the TLS key of the details (which already runs code on the cluster). On the local ' +
          'backend no SSH server runs: `ssh_available` is false and `detail` says so.',
        params: clusterParams,
        querystring: sshKeyQuery,
        response: { 200: sshKeySchema },
      },
    },
    async (request) => {
      const { cluster } = await clusterOf(request);
      return sshAccess(deps, cluster, request.query.worker);
    },
  );

  app.post(
    `${base}/id/:pk/staff-has-seen`,
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        description: 'Staff only: marks the cluster seen by staff (`seen=0` unmarks it).',
        params: clusterParams,
        querystring: staffSeenQuery,
        response: { 200: staffSeenSchema },
      },
    },
    async (request) => {
      const staff = currentUser(request);
      const { cluster } = await clusterAccess(db, staff, request.params.account, request.params.pk);
      return markStaffSeen(db, staff, cluster, request.query.seen);
    },
  );

  app.get(
    '/api/v2/clusters/id/:pk/frontend',
    {
      config: user,
      schema: {
        tags,
        params: z.object({ pk: clusterParams.shape.pk }),
        response: { 200: clusterSummarySchema },
      },
    },
    async (request) => {
      const { access, cluster } = await clusterAccessById(db, currentUser(request), request.params.pk);
      const [summary] = await presentSummaries(
        db,
        [cluster],
        one(access.workspace.id, access.workspace.slug, access.workspace.name),
      );
      return summary!;
    },
  );

  app.post(
    '/api/v2/clusters/id/:cluster_id/event',
    {
      config: user,
      schema: { tags, params: eventParams, body: clientEventBody, response: { 201: z.object({}) } },
    },
    async (request, reply) => {
      const { cluster } = await clusterAccessById(db, currentUser(request), request.params.cluster_id);
      await service.recordClientEvent(db, cluster.id, request.body);
      return reply.code(201).send({});
    },
  );

  app.get(
    '/api/v2/user/workspace/:workspace/dask-config-overrides',
    {
      config: user,
      schema: {
        tags,
        description: 'Dask config the Python client applies before creating a cluster: always a JSON object.',
        params: z.object({ workspace: text(64) }),
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    async (request) => {
      await workspaceAccess(db, currentUser(request), request.params.workspace);
      return {};
    },
  );
}
