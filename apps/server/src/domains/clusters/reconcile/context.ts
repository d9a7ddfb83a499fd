import type { FastifyBaseLogger } from 'fastify';
import type { Backends } from '../../../compute/backend.js';
import type { ClusterTimings } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import type { Cluster } from '../../../db/schema/index.js';
import type { SecretBox } from '../../../lib/crypto.js';

/** What the cluster reconciler works with. */
export interface ClusterLoopContext {
  db: Db;
  backends: Backends;
  secrets: SecretBox;
  timings: ClusterTimings;
  serverUrl: string;
  log: FastifyBaseLogger;
  /**
   * Since when the control plane has served without a gap (loops/serving.ts); null while it cannot
   * tell. Heartbeats are judged from then on only: its own downtime never counts against instances.
   */
  servingSince(): Date | null;
}

/** One step of the reconciler: acts on the cluster and answers when to look again (null: settled). */
export type Step = (ctx: ClusterLoopContext, cluster: Cluster) => Promise<Date | null>;

export const after = (ms: number) => new Date(Date.now() + ms);
/** A stop or a failure waits for the backend's confirmation: look again soon. */
export const SOON_MS = 500;
