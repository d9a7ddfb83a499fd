import { agentFacing } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { z } from '../../../http/zod.js';
import {
  type ClusterDeps,
  callingCluster,
  clusterOf,
  clusterSummarySchema,
  presentSummaries,
  resumeCluster,
  stopCluster,
  workspaceParams,
} from '../../clusters/index.js';
import { workspaceOf } from '../../identity/index.js';
import { registerReadRoutes } from './read-routes.js';
import { registerReportRoutes } from './report-routes.js';
import {
  analyticsClusterSchema,
  analyticsListQuery,
  closeBody,
  desiredStateBody,
  desiredStateParams,
  eventsBody,
  registerBody,
} from './schemas.js';
import * as service from './service.js';

const tags = ['analytics'];
const cluster = { auth: 'cluster', csrf: false } as const;

export function registerAnalyticsRoutes(app: App, deps: ClusterDeps): void {
  const { db } = deps;
  // What schedulers report goes through the instances' connections.
  const { agentDb } = deps;

  app.post(
    '/api/v2/analytics/register',
    {
      config: cluster,
      schema: {
        tags,
        body: registerBody,
        response: { 200: z.object({ id: z.number().int(), scheduler_id: z.string() }) },
      },
    },
    async (request) => service.recordRegister(agentDb, callingCluster(request), request.body),
  );

  app.post(
    '/api/v2/analytics/events',
    {
      config: cluster,
      schema: { tags, body: eventsBody, response: { 200: z.object({ stored: z.number().int() }) } },
    },
    async (request) => service.recordEvents(agentDb, callingCluster(request), request.body),
  );

  app.post(
    '/api/v2/analytics/close',
    { config: cluster, schema: { tags, body: closeBody, response: { 200: z.object({ ok: z.boolean() }) } } },
    async (request) => service.recordClose(agentDb, callingCluster(request), request.body),
  );

  app.get(
    '/api/v2/analytics/:account/clusters/list',
    {
      config: { auth: 'user', workspace: 'read' },
      schema: {
        tags,
        params: workspaceParams,
        querystring: analyticsListQuery,
        response: { 200: z.array(analyticsClusterSchema) },
      },
    },
    async (request) => {
      return service.listAnalyticsClusters(db, workspaceOf(request).workspace.id, request.query);
    },
  );

  app.post(
    '/api/v2/analytics/:account/:cluster/desired-state',
    {
      config: { auth: 'user', cluster: { param: 'cluster' } },
      schema: {
        tags,
        description:
          'Sets what the cluster should be: `stopped`, `paused`, or `running` (resumes a paused cluster).',
        params: desiredStateParams,
        body: desiredStateBody,
        response: { 200: clusterSummarySchema },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const target = clusterOf(request);
      const { desired_status: desired, reason } = request.body;
      const row =
        desired === 'stopped' || desired === 'paused'
          ? await stopCluster(deps, caller, target, { reason, pause: desired === 'paused' })
          : await resumeCluster(deps, caller, target);
      const { workspace } = target.access;
      const [summary] = await presentSummaries(db, [row], new Map([[workspace.id, workspace]]));
      return summary!;
    },
  );

  registerReportRoutes(app, agentFacing(deps));
  registerReadRoutes(app, deps);
}
