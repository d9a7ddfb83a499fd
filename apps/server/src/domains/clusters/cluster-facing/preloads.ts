import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PYTHON_DIR } from '../../../paths.js';

/** Preloads Dask runs on the scheduler and workers: Python modules shipped with the agent. */
export const PRELOADS = {
  scheduler: 'scheduler.py',
  worker: 'worker.py',
  'no-client-shutdown': 'no_client_shutdown.py',
  // Also served as `GET analytics/preload`.
  analytics: 'analytics.py',
  // `cumulus run`'s commands (the handler a client without distributed calls, python/cumulus/dask_wire.py).
  runs: 'runs.py',
  // Cloud preloads; on the local backend they have nothing to do and only log why.
  'aws-creds-loader': 'aws_creds_loader.py',
  'aws-spot': 'aws_spot.py',
  'gcp-spot': 'gcp_spot.py',
} as const;

export type PreloadName = keyof typeof PRELOADS;

/** A preload's Python source, as `GET cluster_facing/preload/{name}` serves it. */
export const preloadSource = (name: PreloadName): Promise<string> =>
  readFile(path.join(PYTHON_DIR, 'cumulus', 'preloads', PRELOADS[name]), 'utf8');

/** The sources of the named preloads, by name (what a bootstrap with `started_at` carries). */
export async function preloadSources(names: readonly PreloadName[]): Promise<Record<string, string>> {
  const sources = await Promise.all(names.map(preloadSource));
  return Object.fromEntries(names.map((name, i) => [name, sources[i] as string]));
}
