import type { UsageQuery } from '@/data/usage/usage-query';

export const usageKeys = {
  all: ['usage'] as const,
  report: (query: UsageQuery) => [...usageKeys.all, 'report', query] as const,
};
