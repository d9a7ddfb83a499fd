import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { z } from '../../http/zod.js';
import { PYTHON_DIR } from '../../lib/python-dir.js';
import {
  backendId,
  bootstrapAnswer,
  bootstrapQuery,
  instancePhoneHome,
  instanceStateAnswer,
  logBatch,
  processPhoneHome,
} from './schemas.js';
import * as service from './service.js';
import { callingCluster } from './token.js';

const tags = ['cluster-facing'];
const cluster = { auth: 'cluster', csrf: false } as const;
const base = '/api/v2/cluster_facing';
const ok = z.object({ ok: z.boolean() });

/** Preloads Dask runs on the scheduler and workers: Python modules shipped with the agent. */
const PRELOADS = {
  scheduler: 'scheduler.py',
  worker: 'worker.py',
  'no-client-shutdown': 'no_client_shutdown.py',
  // Also served as `GET analytics/preload`.
  analytics: 'analytics.py',
} as const;

export function registerClusterFacingRoutes(app: App, deps: Deps): void {
  const { db } = deps;

  app.get(
    `${base}/bootstrap`,
    { config: cluster, schema: { tags, querystring: bootstrapQuery, response: { 200: bootstrapAnswer } } },
    async (request) => service.bootstrap(deps, callingCluster(request), request.query.backend_id),
  );

  for (const [name, file] of Object.entries(PRELOADS)) {
    app.get(
      `${base}/preload/${name}`,
      { config: cluster, schema: { tags, description: `Python source of the ${name} preload.` } },
      async (_request, reply) =>
        reply
          .type('text/x-python; charset=utf-8')
          .send(await readFile(path.join(PYTHON_DIR, 'cumulus', 'preloads', file), 'utf8')),
    );
  }

  app.get(
    `${base}/instance/:backend_id/state`,
    {
      config: cluster,
      schema: {
        tags,
        description: 'The heartbeat: records that the instance is alive and answers whether it should stop.',
        params: z.object({ backend_id: backendId }),
        response: { 200: instanceStateAnswer },
      },
    },
    async (request) => service.heartbeat(db, callingCluster(request), request.params.backend_id),
  );

  app.patch(
    `${base}/instance/phone-home/`,
    { config: cluster, schema: { tags, body: instancePhoneHome, response: { 200: ok } } },
    async (request) => service.instancePhoneHomeUpdate(deps, callingCluster(request), request.body),
  );

  app.patch(
    `${base}/scheduler/phone-home/instance`,
    { config: cluster, schema: { tags, body: processPhoneHome, response: { 200: ok } } },
    async (request) =>
      service.processPhoneHomeUpdate(deps, callingCluster(request), 'scheduler', request.body),
  );

  app.patch(
    `${base}/worker/phone-home/instance/`,
    { config: cluster, schema: { tags, body: processPhoneHome, response: { 200: ok } } },
    async (request) => service.processPhoneHomeUpdate(deps, callingCluster(request), 'worker', request.body),
  );

  app.post(
    `${base}/logs`,
    {
      config: cluster,
      schema: { tags, body: logBatch, response: { 200: z.object({ stored: z.number().int() }) } },
    },
    async (request) => service.storeLogs(db, callingCluster(request), request.body),
  );
}
