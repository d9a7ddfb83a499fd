import type { App } from '../../http/app-types.js';
import { currentUser } from '../../http/auth.js';
import { itemsOf } from '../../http/pagination.js';
import { text, z } from '../../http/zod.js';
import { scopeOf, workspaceOf } from '../identity/index.js';
import { clusterOf } from './access.js';
import { ClusterWaits, hearStateChanges } from './cluster-waits.js';
import { detailsOnceChanged } from './details-wait.js';
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
  detailsQuery,
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
/** Readers of the path's workspace (`account`), and of its cluster `pk`. */
const reader = { auth: 'user', workspace: 'read' } as const;
const ofCluster = { auth: 'user', cluster: 'read' } as const;
const base = '/api/v2/clusters/account/:account';

export function registerClusterRoutes(app: App, deps: ClusterDeps): void {
  const { db } = deps;
  const one = (workspaceId: number, slug: string, name: string) =>
    new Map([[workspaceId, { id: workspaceId, slug, name }]]);

  app.post(
    `${base}/`,
    {
      config: reader,
      schema: {
        tags,
        params: workspaceParams,
        body: createClusterBody,
        response: { 201: createClusterResult },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createCluster(deps, workspaceOf(request), request.body)),
  );

  app.get(
    `${base}/`,
    {
      config: reader,
      schema: {
        tags,
        params: workspaceParams,
        querystring: listClustersQuery,
        response: { 200: z.array(clusterSummarySchema) },
      },
    },
    async (request) => listClusters(db, currentUser(request), workspaceOf(request), request.query),
  );

  const waits = new ClusterWaits();
  const unhear = hearStateChanges(waits);
  app.addHook('preClose', async () => {
    unhear();
    waits.close();
  });

  app.get(
    `${base}/id/:pk`,
    {
      config: ofCluster,
      schema: {
        tags,
        params: clusterParams,
        querystring: detailsQuery,
        response: { 200: clusterDetailsSchema },
      },
    },
    async (request, reply) => {
      const { access, cluster } = clusterOf(request);
      const reader = { userId: currentUser(request).id, config: deps.config, secret: deps.config.secret };
      const present = (row: typeof cluster) =>
        presentDetails(db, deps.secrets, row, access.workspace, reader);
      const { wait_for_change: wait = 0, seen } = request.query;
      if (!wait || seen === undefined) return present(cluster);
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const hold = { seen, ms: wait * 1000, signal: gone.signal };
      return (await detailsOnceChanged(db, waits, cluster.id, hold, present)) ?? present(cluster);
    },
  );

  app.delete(
    `${base}/id/:pk`,
    {
      config: ofCluster,
      schema: {
        tags,
        description: 'Stops the cluster (or pauses it with `pause=1`), recording `reason`.',
        params: clusterParams,
        querystring: deleteClusterQuery,
        response: { 200: z.object({ id: z.number().int(), current_state: clusterStateSchema }) },
      },
    },
    async (request) => {
      const cluster = await service.stopCluster(
        deps,
        currentUser(request),
        clusterOf(request),
        request.query,
      );
      return { id: cluster.id, current_state: presentClusterState(cluster) };
    },
  );

  app.get(
    `${base}/name/:name`,
    {
      config: reader,
      schema: {
        tags,
        params: clusterNameParams,
        querystring: nameLookupQuery,
        response: { 200: clusterSummarySchema },
      },
    },
    async (request) => {
      const access = workspaceOf(request);
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
      config: ofCluster,
      schema: {
        tags,
        params: clusterParams,
        response: { 200: clusterStateSchema.extend({ id: z.number().int() }) },
      },
    },
    async (request) => {
      const { cluster } = clusterOf(request);
      return { id: cluster.id, ...presentClusterState(cluster) };
    },
  );

  app.get(
    `${base}/id/:pk/states`,
    {
      config: ofCluster,
      schema: { tags, params: clusterParams, querystring: statesQuery, response: { 200: statesSchema } },
    },
    async (request) => {
      const { cluster } = clusterOf(request);
      return clusterStates(db, cluster, request.query.start_time);
    },
  );

  app.get(
    `${base}/id/:pk/size`,
    { config: ofCluster, schema: { tags, params: clusterParams, response: { 200: sizeSchema } } },
    async (request) => {
      const { cluster } = clusterOf(request);
      return clusterSize(db, cluster);
    },
  );

  app.get(
    '/api/v2/clusters/paginate',
    {
      config: { auth: 'user', scope: 'filters' },
      schema: { tags, querystring: paginateQuery, response: { 200: itemsOf(clusterSummarySchema) } },
    },
    async (request) => paginateClusters(db, currentUser(request), scopeOf(request), request.query),
  );

  app.get(
    '/api/v2/clusters/paginate-notebook',
    {
      config: { auth: 'user', scope: 'filters' },
      schema: {
        tags,
        description:
          'As `paginate`, for notebook clusters only: those tagged `cumulus-cluster-type: notebook` ' +
          '(or `coiled-cluster-type: notebook`).',
        querystring: paginateQuery,
        response: { 200: itemsOf(clusterSummarySchema) },
      },
    },
    async (request) =>
      paginateClusters(db, currentUser(request), scopeOf(request), request.query, { notebooks: true }),
  );

  app.get(
    `${base}/id/:pk/ssh-key`,
    {
      config: ofCluster,
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
      const { cluster } = clusterOf(request);
      return sshAccess(deps, cluster, request.query.worker);
    },
  );

  app.post(
    `${base}/id/:pk/staff-has-seen`,
    {
      config: { auth: 'staff', cluster: 'read' },
      schema: {
        tags,
        description: 'Staff only: marks the cluster seen by staff (`seen=0` unmarks it).',
        params: clusterParams,
        querystring: staffSeenQuery,
        response: { 200: staffSeenSchema },
      },
    },
    async (request) => {
      return markStaffSeen(db, currentUser(request), clusterOf(request).cluster, request.query.seen);
    },
  );

  app.get(
    '/api/v2/clusters/id/:pk/frontend',
    {
      config: { auth: 'user', cluster: { id: 'pk' } },
      schema: {
        tags,
        params: z.object({ pk: clusterParams.shape.pk }),
        response: { 200: clusterSummarySchema },
      },
    },
    async (request) => {
      const { access, cluster } = clusterOf(request);
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
      config: { auth: 'user', cluster: { id: 'cluster_id' } },
      schema: { tags, params: eventParams, body: clientEventBody, response: { 201: z.object({}) } },
    },
    async (request, reply) => {
      const { cluster } = clusterOf(request);
      await service.recordClientEvent(db, cluster.id, request.body);
      return reply.code(201).send({});
    },
  );

  app.get(
    '/api/v2/user/workspace/:workspace/dask-config-overrides',
    {
      config: reader,
      schema: {
        tags,
        description: 'Dask config the Python client applies before creating a cluster: always a JSON object.',
        params: z.object({ workspace: text(64) }),
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    async () => ({}),
  );
}
