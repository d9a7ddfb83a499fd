// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// clusters: Dask clusters and what they are made of (instances, workers, specs, certificates,
// filestores), what their instances report (cluster-facing, logs), their dashboards and tags, and
// the reconciler that runs them. Above identity and software; what it needs of batch and billing
// comes in through ClusterPorts (ports.ts). Observability (metrics, analytics) reads it from above.
// Other domains import this file only.

// Its face to the assembly: routes, the cluster loop, access to a cluster, its tables; the guard
// the dashboards' proxy puts on every request.
export { clustersModule } from './module.js';
export { proxyOriginGuard } from './dashboards/proxy.js';

// What domains above hand in, and the deps of the calls that need it.
export type { ClusterDeps, ClusterPorts } from './ports.js';

// Starting and stopping clusters; the one writer of what a cluster should be.
export type { ClusterAccess, ClusterRequirement } from './access.js';
export { assertMayCreate, clusterAccessById, clusterNotFound, clusterOf } from './access.js';
export { desire, lookAtClustersOfBuild } from './desired.js';
export { createCluster, requestStop, resumeCluster, stopCluster } from './service.js';
export { liveCores, nodesInUse } from './limits.js';
export { instanceShouldRun, isAtRest, isEnded, isWantedInstance } from './states.js';

// Calls from a cluster's instances (their token, the instance calling).
export { backendId } from './cluster-facing/schemas.js';
export { callingInstance } from './cluster-facing/service.js';
export { callingCluster, clusterTokenResolver } from './cluster-facing/token.js';

// Staff's list of failed clusters; output filestores of a cluster.
export { listAttentionClusters } from './staff-seen.js';
export { outputFiles } from './filestores/service.js';

// Read model: how other domains read the clusters domain's tables.
export type { ClusterEvent, NewClusterEvent } from './read-model.js';
export {
  buildsOfClusters,
  clusterEventsOf,
  clusterRecordCounts,
  clustersHoldingMachines,
  clusterView,
  findCluster,
  findClusterBySlug,
  findInstance,
  instanceByBackendId,
  instanceSpecView,
  instancesOf,
  instanceView,
  liveClusterView,
  logLineCount,
  logLinesPerStep,
  processesOf,
  recordClusterEvents,
  stateChanges,
  workspaceClusters,
} from './read-model.js';

// Schemas and answers other domains' routes share.
export { clusterSummarySchema, createClusterBody, jsonObject, workspaceParams } from './schemas.js';
export { presentSummaries } from './present.js';
