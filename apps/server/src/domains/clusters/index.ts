// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// clusters: Dask clusters and what they are made of (instances, workers, specs, certificates,
// filestores), what their instances report (cluster-facing, logs, metrics, analytics), their
// dashboards and tags, and the reconciler that runs them. Above identity and software; what it
// needs of batch and billing comes in through ClusterPorts (ports.ts).
// Other domains import this file only.

// Routes.
export { pruneHostMetrics } from './analytics/reports.js';
export { registerAnalyticsRoutes } from './analytics/routes.js';
export { registerBackendOptionRoutes } from './backend-options/routes.js';
export { registerClusterFacingRoutes } from './cluster-facing/routes.js';
export { proxyOriginGuard, registerClusterProxy } from './dashboards/proxy.js';
export { registerFilestoreRoutes } from './filestores/routes.js';
export { registerHttpsCertificateRoutes } from './https-certificates/routes.js';
export { registerInstanceSpecRoutes } from './instance-specs/routes.js';
export { registerInstanceRoutes } from './instances/routes.js';
export { registerLogRoutes } from './logs/routes.js';
export { registerMetricRoutes } from './metrics/routes.js';
export { registerJupyterFacingRoutes } from './notebooks/jupyter-routes.js';
export { registerClusterRoutes } from './routes.js';
export { registerTagRoutes } from './tags/routes.js';
export { registerWorkerRoutes } from './workers/routes.js';

// What domains above hand in, and the deps of the calls that need it.
export type { ClusterDeps, ClusterPorts } from './ports.js';

// Starting and stopping clusters; the one writer of what a cluster should be.
export type { ClusterAccess, ClusterRequirement } from './access.js';
export { assertMayCreate, clusterAccessById, clusterAccessResolvers, clusterOf } from './access.js';
export { desire, lookAtClustersOfBuild } from './desired.js';
export { createCluster, requestStop } from './service.js';
export { clusterDomain } from './reconcile/index.js';
export { liveCores, nodesInUse } from './limits.js';
export { instanceShouldRun } from './states.js';

// Calls from a cluster's instances (their token, the instance calling).
export { backendId } from './cluster-facing/schemas.js';
export { callingInstance } from './cluster-facing/service.js';
export { callingCluster, clusterTokenResolver } from './cluster-facing/token.js';

// Staff's list of failed clusters; output filestores of a cluster.
export { listAttentionClusters } from './staff-seen.js';
export { outputFiles } from './filestores/service.js';

// Read model: how other domains read the clusters domain's tables.
export {
  buildsOfClusters,
  clustersHoldingMachines,
  clusterView,
  findCluster,
  findInstance,
  instanceSpecView,
  instanceView,
  liveClusterView,
} from './read-model.js';

// Schemas other domains' routes share.
export { clusterSummarySchema, createClusterBody, workspaceParams } from './schemas.js';
