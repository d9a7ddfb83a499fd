import {
  clusterEvents,
  clusterFiles,
  clusterProcesses,
  clusters,
  filestoreAttachments,
  filestores,
  httpsCertificates,
  instanceLogs,
  instanceSpecs,
  instances,
  stateHistory,
} from '../../db/schema/index.js';
import type { DomainModule, LoopContext, LoopNamesOf } from '../../domain-module.js';
import { clusterAccessResolvers } from './access.js';
import { registerBackendOptionRoutes } from './backend-options/routes.js';
import { registerClusterFacingRoutes } from './cluster-facing/routes.js';
import { registerClusterProxy } from './dashboards/proxy.js';
import { registerFilestoreRoutes } from './filestores/routes.js';
import { registerHttpsCertificateRoutes } from './https-certificates/routes.js';
import { registerInstanceSpecRoutes } from './instance-specs/routes.js';
import { registerInstanceRoutes } from './instances/routes.js';
import { registerLogRoutes } from './logs/routes.js';
import { registerJupyterFacingRoutes } from './notebooks/jupyter-routes.js';
import type { ClusterDeps } from './ports.js';
import { clusterDomain } from './reconcile/index.js';
import { registerClusterRoutes } from './routes.js';
import { registerTagRoutes } from './tags/routes.js';
import { registerWorkerRoutes } from './workers/routes.js';

const loops = [
  {
    name: 'clusters',
    domain: ({ deps, log, servingSince }: LoopContext<ClusterDeps>) =>
      clusterDomain({
        db: deps.db,
        backends: deps.backends,
        secrets: deps.secrets,
        timings: deps.config.clusters,
        serverUrl: deps.config.publicUrl,
        log,
        servingSince,
      }),
  },
] as const;

declare module '../../deps.js' {
  interface LoopNames extends LoopNamesOf<typeof loops> {}
}

/** The clusters domain as the assembly sees it (domain-module.ts). */
export const clustersModule: DomainModule<ClusterDeps> = {
  name: 'clusters',
  routes: [
    registerClusterRoutes,
    registerBackendOptionRoutes,
    registerHttpsCertificateRoutes,
    registerClusterFacingRoutes,
    registerJupyterFacingRoutes,
    registerClusterProxy,
    registerWorkerRoutes,
    registerInstanceRoutes,
    registerInstanceSpecRoutes,
    registerLogRoutes,
    registerFilestoreRoutes,
    registerTagRoutes,
  ],
  loops,
  accessResolvers: (deps) => clusterAccessResolvers(deps.db),
  tables: {
    clusters,
    clusterProcesses,
    instances,
    stateHistory,
    clusterEvents,
    instanceLogs,
    instanceSpecs,
    clusterFiles,
    httpsCertificates,
    filestores,
    filestoreAttachments,
  },
};
