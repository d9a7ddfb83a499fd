import {
  analyticsDurations,
  analyticsExceptions,
  analyticsProfiles,
  analyticsSamples,
  analyticsSpans,
  computations,
  daskSchedulers,
  hostMetrics,
  taskGroups,
} from '../../db/schema/index.js';
import type { DomainModule, LoopContext } from '../../domain-module.js';
import type { ClusterDeps } from '../clusters/index.js';
import { pruneHostMetrics } from './analytics/reports.js';
import { registerAnalyticsRoutes } from './analytics/routes.js';
import { registerMetricRoutes } from './metrics/routes.js';

/** The observability domain as the assembly sees it (domain-module.ts). */
export const observabilityModule: DomainModule<ClusterDeps> = {
  name: 'observability',
  routes: [registerMetricRoutes, registerAnalyticsRoutes],
  loops: [
    {
      chore: 'prune host metrics',
      run: ({ deps }: LoopContext<ClusterDeps>) =>
        pruneHostMetrics(deps.db, deps.config.clusters.hostMetricsRetentionMs),
    },
  ],
  accessResolvers: () => [],
  tables: {
    daskSchedulers,
    computations,
    taskGroups,
    analyticsExceptions,
    analyticsSamples,
    hostMetrics,
    analyticsDurations,
    analyticsSpans,
    analyticsProfiles,
  },
};
