import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { permissionDenied } from '../../../http/errors.js';
import { z } from '../../../http/zod.js';
import { clusterOf, workspaceParams } from '../../clusters/index.js';
import { workspaceOf } from '../../identity/index.js';
import { clusterProgress, computationDetail } from './computations.js';
import { presentSpan } from './present.js';
import * as queries from './queries.js';
import { spanBody } from './report-schemas.js';
import { upsertSpan } from './reports.js';
import {
  clusterAnalyticsSchema,
  clusterIdParams,
  clusterParams,
  computationDetailSchema,
  computationParams,
  computationSchema,
  daskSchedulerParams,
  eventSchema,
  exceptionSchema,
  exceptionsQuery,
  pageQuery,
  progressSchema,
  schedulerParams,
  spanParams,
  spanSchema,
  summaryQuery,
  summarySchema,
  timeseriesQuery,
  timeseriesSchema,
} from './schemas.js';

const tags = ['analytics'];
/** The cluster named by the path's `cluster` (or `cluster_id`), in the workspace it names. */
const ofCluster = { auth: 'user', cluster: { param: 'cluster' } } as const;
const ofClusterId = { auth: 'user', cluster: { param: 'cluster_id' } } as const;
const ofWorkspace = { auth: 'user', workspace: 'read' } as const;

/**
 * What users read of the analytics their clusters' schedulers reported. Readers of the workspace
 * (as for its clusters) read; clusters and schedulers of other workspaces are 404s.
 */
export function registerReadRoutes(app: App, deps: Deps): void {
  const { db } = deps;
  /** The scheduler a call names, among the workspace's clusters. */
  const scheduler = (request: FastifyRequest, id: string) =>
    queries.findScheduler(db, workspaceOf(request).workspace, id);

  app.post(
    '/api/v2/analytics/:account/cluster/:cluster/span/:span_identifier',
    {
      config: ofCluster,
      schema: {
        tags,
        description:
          'Records (or updates) a span of client work on the cluster: any JSON object; `name`, `start`, `stop` (epoch seconds or ISO) and `callstack` are read. Members of the workspace (and its organization admins) only.',
        params: spanParams,
        body: spanBody,
        response: { 200: spanSchema },
      },
    },
    async (request) => {
      const { access, cluster: target } = clusterOf(request);
      // Staff read every workspace's analytics; only its members write into them.
      if (!access.membership && !access.isOrganizationAdmin)
        throw permissionDenied(`Only members of ${access.workspace.name} can add spans to its clusters.`);
      return presentSpan(await upsertSpan(db, target.id, request.params.span_identifier, request.body));
    },
  );

  app.get(
    '/api/v2/analytics/:account/cluster/:cluster',
    { config: ofCluster, schema: { tags, params: clusterParams, response: { 200: clusterAnalyticsSchema } } },
    async (request) => queries.clusterOverview(db, clusterOf(request).cluster),
  );

  app.get(
    '/api/v2/analytics/:account/cluster/:cluster/timeseries',
    {
      config: ofCluster,
      schema: {
        tags,
        description:
          'Seconds of task work per interval (`duration_type`), as series by task prefix, action or in total (`group_by`), and the gauges of each interval.',
        params: clusterParams,
        querystring: timeseriesQuery,
        response: { 200: timeseriesSchema },
      },
    },
    async (request) => {
      const target = clusterOf(request).cluster;
      return queries.timeseries(db, { kind: 'cluster', id: target.id }, request.query);
    },
  );

  app.get(
    '/api/v2/analytics/:account/cluster/:cluster_id/summary',
    {
      config: ofClusterId,
      schema: { tags, params: clusterIdParams, querystring: summaryQuery, response: { 200: summarySchema } },
    },
    async (request) => {
      const target = clusterOf(request).cluster;
      return queries.clusterSummary(db, target.id, request.query);
    },
  );

  app.get(
    '/api/v2/analytics/:account/dask/:dask_scheduler/summary',
    {
      config: ofWorkspace,
      schema: {
        tags,
        params: daskSchedulerParams,
        querystring: summaryQuery,
        response: { 200: summarySchema },
      },
    },
    async (request) => {
      const found = await scheduler(request, request.params.dask_scheduler);
      const totals = await queries.summary(db, { kind: 'scheduler', id: found.scheduler.id }, request.query);
      return { cluster_id: found.cluster.id, scheduler_ids: [found.scheduler.schedulerId], ...totals };
    },
  );

  app.get(
    '/api/v2/analytics/:account/dask/:dask_scheduler/timeseries',
    {
      config: ofWorkspace,
      schema: {
        tags,
        params: daskSchedulerParams,
        querystring: timeseriesQuery,
        response: { 200: timeseriesSchema },
      },
    },
    async (request) => {
      const found = await scheduler(request, request.params.dask_scheduler);
      return queries.timeseries(db, { kind: 'scheduler', id: found.scheduler.id }, request.query);
    },
  );

  app.get(
    '/api/v2/analytics/:account/cluster/:cluster/spans',
    {
      config: ofCluster,
      schema: { tags, params: clusterParams, querystring: pageQuery, response: { 200: z.array(spanSchema) } },
    },
    async (request) => {
      const target = clusterOf(request).cluster;
      return queries.listSpans(db, target.id, request.query);
    },
  );

  app.get(
    '/api/v2/analytics/:account/:scheduler_id/computations/list',
    {
      config: ofWorkspace,
      schema: {
        tags,
        description: "A Dask scheduler's computations, newest first.",
        params: schedulerParams,
        querystring: pageQuery,
        response: { 200: z.array(computationSchema) },
      },
    },
    async (request) => {
      const found = await scheduler(request, request.params.scheduler_id);
      return queries.listComputations(db, { kind: 'scheduler', id: found.scheduler.id }, request.query);
    },
  );

  app.get(
    '/api/v2/analytics/:account/cluster/:cluster/computations/list',
    {
      config: ofCluster,
      schema: {
        tags,
        description: "The cluster's computations (of all its schedulers), newest first.",
        params: clusterParams,
        querystring: pageQuery,
        response: { 200: z.array(computationSchema) },
      },
    },
    async (request) => {
      const target = clusterOf(request).cluster;
      return queries.listComputations(db, { kind: 'cluster', id: target.id }, request.query);
    },
  );

  app.get(
    '/api/v2/analytics/:account/cluster/:cluster/computations/:computation',
    {
      config: ofCluster,
      schema: {
        tags,
        description:
          'One computation of the cluster (`computation`: its `id`) with its task groups (durations, done/total) and the exceptions its tasks raised.',
        params: computationParams,
        response: { 200: computationDetailSchema },
      },
    },
    async (request) => computationDetail(db, clusterOf(request).cluster, request.params.computation),
  );

  app.get(
    '/api/v2/analytics/:account/cluster/:cluster/progress',
    {
      config: ofCluster,
      schema: {
        tags,
        description:
          "What the cluster computes now: its running computations and their task groups' done/total, as its scheduler last reported them (every few seconds). Needs no Dask dashboard.",
        params: clusterParams,
        response: { 200: progressSchema },
      },
    },
    async (request) => clusterProgress(db, clusterOf(request).cluster),
  );

  app.get(
    '/api/v2/analytics/:account/:cluster/events/list',
    {
      config: ofCluster,
      schema: {
        tags,
        description:
          "What the cluster's schedulers reported as events (`analytics/events`, register, close), newest first.",
        params: clusterParams,
        querystring: pageQuery,
        response: { 200: z.array(eventSchema) },
      },
    },
    async (request) => {
      const target = clusterOf(request).cluster;
      return queries.listEvents(db, target.id, request.query);
    },
  );

  app.get(
    '/api/v2/analytics/:account/exceptions/list',
    {
      config: ofWorkspace,
      schema: {
        tags,
        description: "Exceptions tasks raised on the workspace's clusters, newest first.",
        params: workspaceParams,
        querystring: exceptionsQuery,
        response: { 200: z.array(exceptionSchema) },
      },
    },
    async (request) => {
      return queries.listExceptions(db, workspaceOf(request).workspace, request.query);
    },
  );
}
