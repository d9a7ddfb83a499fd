import type { FastifyBaseLogger } from 'fastify';
import type { Backend } from '../compute/backend.js';
import type { ClusterTimings } from '../config.js';
import type { Db } from '../db/client.js';
import { clusters } from '../db/schema/index.js';
import type { SecretBox } from '../lib/crypto.js';
import { reconcileCluster } from './cluster-reconcile.js';
import { type LoopDomain, loopRows } from './runner.js';

export interface ClusterLoopDeps {
  db: Db;
  backend: Backend;
  secrets: SecretBox;
  timings: ClusterTimings;
  serverUrl: string;
  log: FastifyBaseLogger;
}

/** Clusters as a domain of the loop runner: a failing cluster is retried from one interval up to five minutes apart. */
export function clusterDomain(deps: ClusterLoopDeps): LoopDomain {
  return {
    name: 'clusters',
    rows: loopRows(clusters),
    reconcile: (id) => reconcileCluster(deps, id),
    backoff: { initialMs: deps.timings.reconcileIntervalMs, capMs: 5 * 60_000 },
    intervalMs: deps.timings.reconcileIntervalMs,
  };
}
