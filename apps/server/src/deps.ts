import type { Backend } from './compute/backend.js';
import type { Config } from './config.js';
import type { ChangeFeed } from './db/changes.js';
import type { Db } from './db/client.js';
import type { SecretBox } from './lib/crypto.js';

/** What modules receive when they register their routes. */
export interface Deps {
  config: Config;
  db: Db;
  /** Committed changes to cached rows (credentials, users), from every server on the database. */
  changes: ChangeFeed;
  secrets: SecretBox;
  /** Nudges the mail loop; call after the transaction that queued mail has committed. */
  wakeMail(): void;
  /** Where instances run (the local backend by default). */
  backend: Backend;
  /** Nudges the cluster control loop; call after the transaction that changed a cluster. */
  wakeClusters(): void;
}
