import type { LogLine } from '@/data/clusters/cluster-logs-query';

/** A better-logs line as the console holds it (camelCased); tests name only what they check. */
export const logLine = (
  timestamp: number,
  message: string,
  instanceId = 1,
  instance = 'etl-scheduler',
): LogLine => ({
  timestamp,
  instanceId,
  message,
  instance,
  source: 'dask',
  taskId: null,
});
