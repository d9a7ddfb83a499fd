import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type AppOptions, buildApp } from './app.js';
import { createEc2Backend } from './compute/aws/ec2-backend.js';
import { type Backends, workspaceBackends } from './compute/backend.js';
import { createLocalBackend } from './compute/local.js';
import { createLocalBuilder } from './compute/local-builder.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import type { Deps, LoopName } from './deps.js';
import { jobDomain } from './domains/batch/reconcile.js';
import { machineShapeOf } from './domains/billing/pricing/vm-types.js';
import { limitsDomain } from './domains/billing/usage/limits.js';
import { ensureMeter, meterDomain, pruneUsage } from './domains/billing/usage/meter.js';
import { CLOUD_SECRET_PURPOSE } from './domains/cloud/credentials.js';
import { awsPlacementOf } from './domains/cloud/setup/aws-account.js';
import { chosenBackend } from './domains/cloud/workspace-backend.js';
import { resolveClusterToken } from './domains/clusters/cluster-facing/token.js';
import { clusterDomain } from './domains/clusters/reconcile/index.js';
import { seedInteractionTypes } from './domains/identity/interactions/service.js';
import { collectEnvironments } from './domains/software/gc.js';
import { buildDomain } from './domains/software/reconcile.js';
import type { App } from './http/app-types.js';
import { pruneCredentials } from './http/auth.js';
import { SecretBox } from './lib/crypto.js';
import { minutes } from './lib/time.js';
import { Periodic } from './loops/periodic.js';
import { Runner } from './loops/runner.js';
import { createMailDelivery } from './mail/delivery.js';

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
  /** Where instances run; the local backend for every workspace by default. */
  backends?: Backends;
}

/** Opens and migrates the database and assembles the app and its loops; does not listen. */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const database =
    options.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pgdata') }));
  const ownsDatabase = !options.database;
  await database.migrate();
  await seedInteractionTypes(database.db);

  const loops = new Map<LoopName, Periodic | Runner>();
  const cloudSecrets = new SecretBox(config.secret, CLOUD_SECRET_PURPOSE);
  const backends =
    options.backends ??
    workspaceBackends(
      createLocalBackend({
        python: config.python,
        dataDir: config.dataDir,
        baseEnv: config.instanceEnv,
        stopGraceMs: config.clusters.stopGraceMs,
        builder: createLocalBuilder({
          python: config.python,
          dataDir: config.dataDir,
          env: config.software.buildEnv,
          indexUrl: config.software.pipIndexUrl,
          extraIndexUrl: config.software.pipExtraIndexUrl,
        }),
      }),
      [
        createEc2Backend({
          aws: {},
          placementOf: (workspaceId) => awsPlacementOf(database.db, cloudSecrets, workspaceId),
          shapeOf: machineShapeOf,
        }),
      ],
      (workspaceId) => chosenBackend(database.db, workspaceId),
    );
  const deps: Deps = {
    config,
    db: database.db,
    changes: database.changes,
    secrets: new SecretBox(config.secret),
    cloudSecrets,
    loops: { wake: (name) => loops.get(name)?.wake() },
    backends,
  };
  const app = await buildApp(deps, {
    ...options,
    resolveClusterToken: options.resolveClusterToken ?? resolveClusterToken,
  });
  const log: FastifyBaseLogger = app.log;
  const mail = createMailDelivery(database.db, { smtpUrl: config.smtpUrl, from: config.mailFrom }, log);
  loops.set('mail-outbox', new Periodic('mail-outbox', 5_000, () => mail.deliverDue(), log));
  loops.set(
    'clusters',
    new Runner(
      database.db,
      clusterDomain({
        db: database.db,
        backends,
        secrets: deps.secrets,
        timings: config.clusters,
        serverUrl: config.publicUrl,
        log,
      }),
      log,
    ),
  );
  loops.set(
    'software-builds',
    new Runner(
      database.db,
      buildDomain({
        db: database.db,
        loops: deps.loops,
        backends,
        dataDir: config.dataDir,
        serverUrl: config.publicUrl,
        log,
      }),
      log,
    ),
  );
  loops.set(
    'batch-jobs',
    new Runner(database.db, jobDomain({ db: database.db, loops: deps.loops, log }), log),
  );
  await ensureMeter(database.db);
  loops.set(
    'metering',
    new Runner(
      database.db,
      meterDomain({
        db: database.db,
        rates: {
          localCoreHourUsd: config.usage.localCoreHourUsd,
          localGibHourUsd: config.usage.localGibHourUsd,
        },
        minuteMs: config.usage.minuteMs,
      }),
      log,
    ),
  );
  loops.set('limits', new Runner(database.db, limitsDomain(deps, config.usage.minuteMs), log));
  const housekeeping = new Periodic(
    'housekeeping',
    minutes(15),
    async () => {
      await pruneCredentials(database.db);
      await pruneUsage(database.db, config.usage.retentionMs);
      await collectEnvironments(database.db, backends, {
        retentionMs: config.software.retentionMs,
        dataDir: config.dataDir,
        log,
      });
      return false;
    },
    log,
  );
  const all = [...loops.values(), housekeeping];

  return {
    app,
    database,
    deps,
    startLoops: () => {
      for (const loop of all) loop.start();
    },
    stopLoops: async () => {
      await Promise.all(all.map((loop) => loop.stop()));
    },
    async close() {
      await Promise.all(all.map((loop) => loop.stop()));
      mail.close();
      await app.close();
      if (ownsDatabase) await database.close();
    },
  };
}
