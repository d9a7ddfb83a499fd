import { createReadStream } from 'node:fs';
import { agentBundle } from '../../../compute/agent-bundle.js';
import { agentFacing } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { z } from '../../../http/zod.js';
import { ClusterWaits } from '../cluster-waits.js';
import type { ClusterDeps } from '../ports.js';
import { PRELOADS, type PreloadName, preloadSource } from './preloads.js';
import { registryAuthOf } from './registry-auth.js';
import { dashboardCertificate, fileRef, workerIps } from './resources.js';
import {
  backendId,
  bootstrapAnswer,
  bootstrapQuery,
  dashboardCertAnswer,
  fileRefAnswer,
  fileRefParams,
  instancePhoneHome,
  instanceStateAnswer,
  logBatch,
  processPhoneHome,
  workerIpsAnswer,
} from './schemas.js';
import * as service from './service.js';
import { callingCluster } from './token.js';

const tags = ['cluster-facing'];
const cluster = { auth: 'cluster', csrf: false } as const;
const base = '/api/v2/cluster_facing';
const ok = z.object({ ok: z.boolean() });

export function registerClusterFacingRoutes(app: App, allDeps: ClusterDeps): void {
  const deps = agentFacing(allDeps);
  const { db } = deps;
  const waits = new ClusterWaits();
  app.addHook('preClose', async () => waits.close());

  app.get(
    `${base}/bootstrap`,
    { config: cluster, schema: { tags, querystring: bootstrapQuery, response: { 200: bootstrapAnswer } } },
    async (request, reply) => {
      const { backend_id, wait_for_scheduler = 0, started_at } = request.query;
      // Held at most half a heartbeat interval: the agent heartbeats between two of these.
      const ms = Math.min(wait_for_scheduler * 1000, deps.config.clusters.heartbeatIntervalMs / 2);
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return service.bootstrap(
        deps,
        callingCluster(request),
        backend_id,
        { waits, ms, signal: gone.signal },
        started_at,
      );
    },
  );

  app.get(
    `${base}/agent.tar.gz`,
    {
      config: cluster,
      schema: {
        tags,
        description:
          'The instance agent (the `cumulus` Python package) as a gzip tar archive: what a cloud VM fetches at boot to run it.',
      },
    },
    async (_request, reply) => reply.type('application/gzip').send(await agentBundle()),
  );

  app.get(
    `${base}/registry-auth.json`,
    {
      config: cluster,
      schema: {
        tags,
        description:
          'The workspace\'s login for the registry of the cluster\'s container image, as a containers auth file (`{"auths": {registry: {"auth": ...}}}`): what an instance fetches to a private file just before it pulls the image. Not found where the image needs none (no container environment, or no login for its registry).',
        response: { 200: z.object({ auths: z.record(z.string(), z.object({ auth: z.string() })) }) },
      },
    },
    async (request) => registryAuthOf(deps, callingCluster(request)),
  );

  app.get(
    `${base}/environment.tar.gz`,
    {
      config: cluster,
      schema: {
        tags,
        description:
          "The cluster's software environment as a gzip tar archive (bootstrap's `environment`): what a vm_aws instance unpacks at boot and runs Dask with. `arch`: the one for machines of that architecture (x86_64, aarch64).",
        querystring: z.object({ arch: z.enum(['x86_64', 'aarch64']).optional() }),
      },
    },
    async (request, reply) => {
      const archive = await service.environmentArchive(
        deps,
        callingCluster(request),
        request.query.arch ?? null,
      );
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="env-${archive.key}.tar.gz"`)
        .send(createReadStream(archive.path));
    },
  );

  for (const name of Object.keys(PRELOADS) as PreloadName[]) {
    app.get(
      `${base}/preload/${name}`,
      { config: cluster, schema: { tags, description: `Python source of the ${name} preload.` } },
      async (_request, reply) => reply.type('text/x-python; charset=utf-8').send(await preloadSource(name)),
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
    async (request) => {
      const clusterId = callingCluster(request);
      const answer = await service.processPhoneHomeUpdate(deps, clusterId, 'scheduler', request.body);
      if (request.body.state === 'started' && request.body.address) waits.wake(clusterId);
      return answer;
    },
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

  app.get(
    `${base}/worker-ips`,
    { config: cluster, schema: { tags, response: { 200: workerIpsAnswer } } },
    async (request) => workerIps(db, callingCluster(request)),
  );

  app.get(
    `${base}/scheduler/dashboard/cert`,
    {
      config: cluster,
      schema: {
        tags,
        description:
          "The certificate the dashboard serves: the cluster's own (self-signed), as no DNS or ACME " +
          'is configured to issue one for a custom subdomain.',
        response: { 200: dashboardCertAnswer },
      },
    },
    async (request) => dashboardCertificate(deps, callingCluster(request)),
  );

  app.get(
    `${base}/db-file-ref/:key`,
    {
      config: cluster,
      schema: {
        tags,
        description: 'A file kept for the cluster (404 when there is none).',
        params: fileRefParams,
        response: { 200: fileRefAnswer },
      },
    },
    async (request) => fileRef(db, callingCluster(request), request.params.key),
  );
}
