import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { SecretBox } from './lib/crypto.js';

/** What modules receive when they register their routes. */
export interface Deps {
  config: Config;
  db: Db;
  secrets: SecretBox;
  /** Nudges the mail loop; call after the transaction that queued mail has committed. */
  wakeMail(): void;
}
