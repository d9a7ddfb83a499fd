import { useOutletContext } from 'react-router';

import type { ClusterDetails, ClusterRef } from '@/features/clusters/api';

/** What the cluster page hands its tabs: the cluster (polled by the page) and how to address it. */
export type ClusterContext = { cluster: ClusterDetails; clusterRef: ClusterRef };

export const useClusterContext = () => useOutletContext<ClusterContext>();
