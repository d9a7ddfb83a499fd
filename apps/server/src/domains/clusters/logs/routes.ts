import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { id, z } from '../../../http/zod.js';
import { SecretBox } from '../../../lib/crypto.js';
import { clusterOf } from '../access.js';
import { clusterParams } from '../schemas.js';
import { logPage, newSession, openSession } from './pages.js';
import {
  alertSchema,
  betterLogsQuery,
  infraEventSchema,
  instanceLogsQuery,
  logInfoSchema,
  logPageRequest,
  logPageSchema,
  logRowSchema,
  logSessionParams,
  logsClusterParams,
} from './schemas.js';
import * as service from './service.js';

const tags = ['logs'];
/** Readers of the cluster `pk` of the path's workspace. */
const reader = { auth: 'user', cluster: 'read' } as const;
/** Readers of the cluster `pk` (paths without the workspace). */
const byId = { auth: 'user', cluster: { id: 'pk' } } as const;
const base = '/api/v2/clusters/account/:account/id/:pk';

export function registerLogRoutes(app: App, { db, config }: Deps): void {
  const sessions = new SecretBox(config.secret, 'log-page-session-v1');

  app.get(
    `${base}/better-logs`,
    {
      config: reader,
      schema: {
        tags,
        description:
          'Log lines of the cluster, oldest first: `{timestamp (epoch ms), instance_id, message}`.',
        params: clusterParams,
        querystring: betterLogsQuery,
        response: { 200: z.array(logRowSchema) },
      },
    },
    async (request) => service.clusterLogs(db, clusterOf(request).cluster.id, request.query),
  );

  app.get(
    `${base}/logs`,
    {
      config: reader,
      schema: {
        tags,
        params: clusterParams,
        querystring: betterLogsQuery,
        response: { 200: z.array(logRowSchema) },
      },
    },
    async (request) => service.clusterLogs(db, clusterOf(request).cluster.id, request.query),
  );

  app.get(
    `${base}/log-info`,
    { config: reader, schema: { tags, params: clusterParams, response: { 200: logInfoSchema } } },
    async (request) => service.logInfo(db, clusterOf(request).cluster),
  );

  app.get(
    `${base}/infra-events-log`,
    { config: reader, schema: { tags, params: clusterParams, response: { 200: z.array(infraEventSchema) } } },
    async (request) => service.infraEvents(db, clusterOf(request).cluster),
  );

  app.get(
    `${base}/alerts`,
    { config: reader, schema: { tags, params: clusterParams, response: { 200: z.array(alertSchema) } } },
    async (request) => service.clusterAlerts(db, clusterOf(request).cluster),
  );

  app.get(
    '/api/v2/logs/cluster/:pk/init',
    {
      config: byId,
      schema: {
        tags,
        description: 'Where a log viewer starts: what logs exist and the newest lines.',
        params: logsClusterParams,
        response: { 200: logInfoSchema.extend({ events: z.array(logRowSchema) }) },
      },
    },
    async (request) => {
      const c = clusterOf(request).cluster;
      const info = await service.logInfo(db, c);
      const since = info.latest_ms === null ? undefined : Math.max(0, info.latest_ms - 60_000);
      const events = await service.clusterLogs(db, c.id, {
        instance_ids: undefined,
        since_ms: since,
        limit: 1000,
      });
      return { ...info, events };
    },
  );

  app.post(
    '/api/v2/logs/cluster/:pk/page/',
    {
      config: byId,
      schema: {
        tags,
        description:
          "Starts a log page session with better-logs' filters: the first page, oldest first, and " +
          '`next`, an opaque session for `GET .../page/{next}`.',
        params: logsClusterParams,
        body: logPageRequest,
        response: { 200: logPageSchema },
      },
    },
    async (request) => {
      const c = clusterOf(request).cluster;
      return logPage(db, sessions, newSession(c.id, request.body));
    },
  );

  app.get(
    '/api/v2/logs/cluster/:pk/page/:encoded_session',
    {
      config: byId,
      schema: {
        tags,
        description:
          'The page after a session (from `next`), and the session after it. A session that was ' +
          'altered, or that names another cluster, is a 400.',
        params: logSessionParams,
        response: { 200: logPageSchema },
      },
    },
    async (request) => {
      const c = clusterOf(request).cluster;
      return logPage(db, sessions, openSession(sessions, request.params.encoded_session, c.id));
    },
  );

  app.get(
    '/api/v2/logs/instance/:pk',
    {
      config: { auth: 'user', cluster: { instance: 'pk' } },
      schema: {
        tags,
        params: z.object({ pk: id }),
        querystring: instanceLogsQuery,
        response: { 200: z.array(logRowSchema) },
      },
    },
    async (request) => service.instanceLogLines(db, request.params.pk, request.query),
  );
}
