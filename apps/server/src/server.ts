import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type AppOptions, buildApp } from './app.js';
import type { Backend } from './compute/backend.js';
import { createLocalBackend } from './compute/local.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import type { Deps } from './deps.js';
import type { App } from './http/app-types.js';
import { pruneCredentials } from './http/auth.js';
import { SecretBox } from './lib/crypto.js';
import { minutes } from './lib/time.js';
import { clusterDomain } from './loops/clusters.js';
import { createMailDelivery } from './loops/mail-outbox.js';
import { Periodic } from './loops/periodic.js';
import { Runner } from './loops/runner.js';
import { resolveClusterToken } from './modules/cluster-facing/token.js';
import { seedInteractionTypes } from './modules/interactions/service.js';

export interface Server {
  app: App;
  database: Database;
  deps: Deps;
  /** Starts the control loops (mail delivery, housekeeping, clusters). */
  startLoops(): void;
  /** Stops them (close does too); running clusters keep running, to be adopted at the next start. */
  stopLoops(): Promise<void>;
  close(): Promise<void>;
}

export interface ServerOptions extends AppOptions {
  /** An already open database (tests share one); otherwise opened from the config. */
  database?: Database;
  /** Where instances run; the local backend by default. */
  backend?: Backend;
}

/** Opens and migrates the database and assembles the app and its loops; does not listen. */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const database =
    options.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pgdata') }));
  const ownsDatabase = !options.database;
  await database.migrate();
  await seedInteractionTypes(database.db);

  let mailLoop: Periodic | undefined;
  let clusterLoop: Runner | undefined;
  const backend =
    options.backend ??
    createLocalBackend({
      python: config.python,
      dataDir: config.dataDir,
      baseEnv: config.instanceEnv,
      stopGraceMs: config.clusters.stopGraceMs,
    });
  const deps: Deps = {
    config,
    db: database.db,
    changes: database.changes,
    secrets: new SecretBox(config.secret),
    wakeMail: () => mailLoop?.wake(),
    backend,
    wakeClusters: () => clusterLoop?.wake(),
  };
  const app = await buildApp(deps, {
    ...options,
    resolveClusterToken: options.resolveClusterToken ?? resolveClusterToken,
  });
  const log: FastifyBaseLogger = app.log;
  const mail = createMailDelivery(database.db, { smtpUrl: config.smtpUrl, from: config.mailFrom }, log);
  mailLoop = new Periodic('mail-outbox', 5_000, () => mail.deliverDue(), log);
  const housekeeping = new Periodic(
    'housekeeping',
    minutes(15),
    async () => {
      await pruneCredentials(database.db);
      return false;
    },
    log,
  );
  clusterLoop = new Runner(
    database.db,
    clusterDomain({
      db: database.db,
      backend,
      secrets: deps.secrets,
      timings: config.clusters,
      serverUrl: config.publicUrl,
      log,
    }),
    log,
  );
  const loops = [mailLoop, housekeeping, clusterLoop];

  return {
    app,
    database,
    deps,
    startLoops: () => {
      for (const loop of loops) loop.start();
    },
    stopLoops: async () => {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
    async close() {
      await Promise.all(loops.map((loop) => loop.stop()));
      mail.close();
      await app.close();
      if (ownsDatabase) await database.close();
    },
  };
}
