import { useOutletContext } from 'react-router';

import type { ClusterDetails } from '@/data/clusters/cluster-details-query';
import type { ClusterRef } from '@/data/clusters/keys';

/** What the cluster page hands its tabs: the cluster (polled by the page) and how to address it. */
export type ClusterContext = { cluster: ClusterDetails; clusterRef: ClusterRef };

export const useClusterContext = () => useOutletContext<ClusterContext>();
