import { generatePath } from 'react-router';

import { paths } from '@/lib/paths';
import { ACCOUNT_PARAM } from '@/lib/workspace';

/** The dashboard's tab parameter (`?tab=jobs`; the clusters tab is the default, without it). */
export const DASHBOARD_TAB_PARAM = 'tab';

/** The clusters dashboard on its Jobs tab. */
export const dashboardJobsLink = `${paths.clusters}?${DASHBOARD_TAB_PARAM}=jobs`;

export const CLUSTER_TABS = [
  { id: 'overview', label: 'Overview', path: paths.cluster },
  { id: 'instances', label: 'Instances', path: paths.clusterInstances },
  { id: 'logs', label: 'Logs', path: paths.clusterLogs },
  { id: 'metrics', label: 'Metrics', path: paths.clusterMetrics },
  { id: 'analytics', label: 'Analytics', path: paths.clusterAnalytics },
  { id: 'events', label: 'Events', path: paths.clusterEvents },
] as const;
export type ClusterTab = (typeof CLUSTER_TABS)[number]['id'];

/** A cluster's page (or one of its tabs), naming its workspace so the link works for anyone in it. */
export function clusterLink(
  cluster: { id: number; account: { slug: string } },
  tab: ClusterTab = 'overview',
) {
  const path = CLUSTER_TABS.find((candidate) => candidate.id === tab)?.path ?? paths.cluster;
  const search = new URLSearchParams({ [ACCOUNT_PARAM]: cluster.account.slug });
  return `${generatePath(path, { clusterId: String(cluster.id) })}?${search}`;
}
