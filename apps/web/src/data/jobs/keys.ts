import type { JobsQuery } from '@/data/jobs/jobs-query';

export const jobKeys = {
  all: ['jobs'] as const,
  lists: () => [...jobKeys.all, 'list'] as const,
  list: (query: JobsQuery) => [...jobKeys.lists(), query] as const,
  details: (id: number) => [...jobKeys.all, 'details', id] as const,
  ofCluster: (clusterId: number) => [...jobKeys.all, 'cluster', clusterId] as const,
};
