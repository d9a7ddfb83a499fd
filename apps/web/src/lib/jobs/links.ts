import { generatePath } from 'react-router';

import { clusterLink } from '@/lib/clusters/links';
import { paths } from '@/lib/paths';

export const jobLink = (id: number) => generatePath(paths.batchJob, { jobId: String(id) });

/**
 * The page of the cluster a job runs on. With its workspace's slug the link selects that workspace;
 * without, the cluster page finds it out from the cluster.
 */
export const jobClusterLink = (clusterId: number, workspaceSlug?: string | null) =>
  workspaceSlug
    ? clusterLink({ id: clusterId, account: { slug: workspaceSlug } })
    : generatePath(paths.cluster, { clusterId: String(clusterId) });
