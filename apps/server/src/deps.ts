import type { Backends } from './compute/backend.js';
import type { Config } from './config.js';
import type { ChangeFeed } from './db/changes.js';
import type { Db } from './db/client.js';
import type { SecretBox } from './lib/crypto.js';

/**
 * The control loops a service can wake: the kernel's mail outbox, and each domain's, which its
 * module adds from its list of loops (`interface LoopNames extends LoopNamesOf<typeof loops>`).
 */
export interface LoopNames {
  'mail-outbox': true;
}
export type LoopName = keyof LoopNames;

export interface Loops {
  /**
   * Asks a loop to look for due work now, in this process (other replicas find it at their next
   * interval). Call after the transaction that made the work due has committed.
   */
  wake(name: LoopName): void;
}

/** The deps of routes only instances call: their queries go through `agentDb`. */
export const agentFacing = <D extends Deps>(deps: D): D => ({ ...deps, db: deps.agentDb });

/** What modules receive when they register their routes. */
export interface Deps {
  config: Config;
  db: Db;
  /** What instances' calls use (a pool of its own on PostgreSQL; see Database.agentDb). */
  agentDb: Db;
  /** Committed changes to cached rows (credentials, users), from every server on the database. */
  changes: ChangeFeed;
  secrets: SecretBox;
  /** Seals cloud credentials (a key of its own, derived from the same server secret). */
  cloudSecrets: SecretBox;
  loops: Loops;
  /** Where instances run: the backend of each workspace and cluster. */
  backends: Backends;
}
