import { agentFacing, type Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { text, z } from '../../../http/zod.js';
import { backendId } from '../cluster-facing/schemas.js';
import { callingCluster } from '../cluster-facing/token.js';
import { jupyterSettings, reportJupyter } from './jupyter.js';

const tags = ['cluster-facing'];
const cluster = { auth: 'cluster', csrf: false } as const;
const base = '/api/v2/cluster_facing/scheduler/jupyter';

/** The calls a notebook cluster's scheduler agent makes about its Jupyter (agent/PROTOCOL.md). */
export function registerJupyterFacingRoutes(app: App, allDeps: Deps): void {
  const deps = agentFacing(allDeps);
  app.get(
    base,
    {
      config: cluster,
      schema: {
        tags,
        description:
          "How the scheduler's agent starts Jupyter: the base URL the control plane proxies it under, " +
          'its token and the origin it allows; 404 where the cluster runs no Jupyter.',
        querystring: z.object({ backend_id: backendId }),
        response: {
          200: z.object({
            base_url: z.string(),
            token: z.string(),
            allow_origin: z.string(),
            port: z.number().int().describe('0: any free port; a cloud backend fixes it (8888).'),
          }),
        },
      },
    },
    async (request) => jupyterSettings(deps, callingCluster(request), request.query.backend_id),
  );

  app.patch(
    base,
    {
      config: cluster,
      schema: {
        tags,
        description:
          'Where Jupyter serves on the scheduler instance (`http://host:port`), and its start page.',
        body: z.object({
          backend_id: backendId,
          address: text(300)
            .regex(/^https?:\/\//, 'An http(s) address.')
            .nullable(),
          ui: z.enum(['lab', 'tree']),
        }),
        response: { 200: z.object({ ok: z.boolean() }) },
      },
    },
    async (request) => reportJupyter(deps, callingCluster(request), request.body),
  );
}
