import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type AppDeps, type AppOptions, buildApp } from './app.js';
import { createEc2Backend } from './compute/aws/ec2-backend.js';
import { type Backends, workspaceBackends } from './compute/backend.js';
import { createGceBackend } from './compute/gcp/gce-backend.js';
import { createLocalBackend } from './compute/local.js';
import { createLocalBuilder } from './compute/local-builder.js';
import { LocalSandbox } from './compute/local-sandbox.js';
import { WarmPool } from './compute/local-warm.js';
import { Podman } from './compute/podman.js';
import { createSlurmBackend } from './compute/slurm/slurm-backend.js';
import { closeSshConnections } from './compute/ssh/connection.js';
import { createSshBackend } from './compute/ssh/ssh-backend.js';
import { WARM_IDLE_SECONDS } from './compute/ssh/warm.js';
import { machineShapeOf } from './compute/vm-types.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import type { LoopContext } from './domain-module.js';
import * as batch from './domains/batch/index.js';
import * as billing from './domains/billing/index.js';
import * as cloud from './domains/cloud/index.js';
import * as clusters from './domains/clusters/index.js';
import * as identity from './domains/identity/index.js';
import * as onboarding from './domains/onboarding/index.js';
import type { App } from './http/app-types.js';
import { drain } from './http/drain.js';
import { SecretBox } from './lib/crypto.js';
import { minutes } from './lib/time.js';
import { Periodic } from './loops/periodic.js';
import { Runner } from './loops/runner.js';
import { ServingClock } from './loops/serving.js';
import { createMailDelivery } from './mail/delivery.js';
import { DOMAIN_MODULES } from './modules.js';

/**
 * Connections the kernel holds for the server while its event loop is busy. Node's default (511)
 * overflowed when thousands of instances called at once (bench/control-plane.ts: agents open
 * connections as their calls need them, and an overflow costs a call 1, 3 or 7 s of SYN retries);
 * the kernel caps it at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 4096;

export interface Server {
  app: App;
  database: Database;
  deps: AppDeps;
  /** The local backend's warm processes (compute/local-warm.ts). */
  warm: WarmPool;
  /**
   * Starts the control loops (mail delivery, housekeeping, clusters) and, unless told not to,
   * reads the interpreter clusters and builds use.
   */
  startLoops(options?: { readInterpreter?: boolean }): void;
  /** Stops them (close does too); running clusters keep running, to be adopted at the next start. */
  stopLoops(): Promise<void>;
  /**
   * Stops taking requests, stops the loops and closes the database; clusters keep running. With
   * `graceMs`, requests in flight get that long before their connections are cut (answers how
   * many were); without, they are waited for.
   */
  close(options?: { graceMs?: number }): Promise<number>;
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
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'pgdata'),
      poolSize: config.databasePoolSize,
      agentPoolSize: config.databaseAgentPoolSize,
    }));
  const ownsDatabase = !options.database;
  await database.migrate();
  await onboarding.seedInteractionTypes(database.db);

  const loops = new Map<string, Periodic | Runner>();
  const cloudSecrets = new SecretBox(config.secret, cloud.CLOUD_SECRET_PURPOSE);
  // Who local clusters and builds run as: decided at their first launch, or at startLoops.
  const sandbox = new LocalSandbox({
    ...config.localIsolation,
    dataDir: config.dataDir,
    python: config.python,
  });
  const podman = config.containers ? new Podman(config.containers) : undefined;
  // Kept with no processes too (size 0): instances a former server started in warm ones are found by its records.
  const warm = new WarmPool({
    python: config.python,
    dataDir: config.dataDir,
    size: config.warmProcesses,
    baseEnv: config.instanceEnv,
    pythonPath: () => sandbox.pythonPath,
  });
  const backends =
    options.backends ??
    workspaceBackends(
      createLocalBackend({
        python: config.python,
        dataDir: config.dataDir,
        baseEnv: config.instanceEnv,
        stopGraceMs: config.clusters.stopGraceMs,
        sandbox,
        ...(podman && { podman }),
        warm,
        builder: createLocalBuilder({
          python: config.python,
          dataDir: config.dataDir,
          sandbox,
          env: config.software.buildEnv,
          indexUrl: config.software.pipIndexUrl,
          extraIndexUrl: config.software.pipExtraIndexUrl,
          ...(podman && { podman }),
        }),
      }),
      [
        createEc2Backend({
          aws: {},
          ...(podman && { podman }),
          placementOf: (workspaceId, region) =>
            cloud.awsPlacementOf(database.db, cloudSecrets, workspaceId, region),
          shapeOf: machineShapeOf,
        }),
        createGceBackend({
          placementOf: (workspaceId, region) =>
            cloud.gcpPlacementOf(database.db, cloudSecrets, workspaceId, region),
          shapeOf: machineShapeOf,
          computeUrl: config.gcp.computeUrl,
          tokenUrl: config.gcp.tokenUrl,
          metadataUrl: config.gcp.metadataUrl,
          storage: { storageUrl: config.gcp.storageUrl, serverUrl: config.publicUrl },
          images: config.gcp.images,
          ...(podman && { podman }),
        }),
        createSshBackend({
          hosts: cloud.sshHostsPort(database.db, cloudSecrets),
          lostAfterMs: config.clusters.heartbeatTimeoutMs,
          stopGraceMs: config.clusters.stopGraceMs,
          warm: { size: config.sshWarmProcesses, idleSeconds: WARM_IDLE_SECONDS },
        }),
        createSlurmBackend({ clusters: cloud.slurmClustersPort(database.db, cloudSecrets) }),
      ],
      // A workspace with a Slurm cluster runs its new clusters there; one with SSH hosts, on them.
      async (workspaceId) =>
        (await cloud.hasSlurmCluster(database.db, workspaceId))
          ? { type: 'slurm' }
          : (await cloud.hasSshHosts(database.db, workspaceId))
            ? { type: 'ssh' }
            : cloud.chosenBackend(database.db, workspaceId),
    );
  const deps: AppDeps = {
    config,
    db: database.db,
    agentDb: database.agentDb,
    changes: database.changes,
    secrets: new SecretBox(config.secret),
    cloudSecrets,
    loops: { wake: (name) => loops.get(name)?.wake() },
    backends,
    // Identity (and clusters, above it) sit below billing, which owns plans, and below onboarding,
    // which keeps the flags its tokens tick: handed in here.
    identityPorts: {
      plans: billing.planPort,
      billing: billing.billingPort,
      onboarding: {
        tokenMade: (tx, userId) => onboarding.setFlag(tx, userId, 'has-api-key', true).then(() => undefined),
        clientUsed: (tx, userId) => onboarding.recordClientUsed(tx, userId),
      },
    },
    // Clusters sit below batch and billing: what they need of them is handed in here.
    clusterPorts: {
      assertMayStart: billing.assertWithinCreditLimits,
      attachBatchJobs: batch.attachJobs,
      batchSetup: batch.batchSetup,
      registryLogin: (workspaceId, image) =>
        cloud.registryLoginOf(database.db, cloudSecrets, workspaceId, image),
    },
    // Software sits below clusters: what it needs of them is handed in here.
    softwarePorts: {
      buildEnded: (buildId) => clusters.lookAtClustersOfBuild(deps, buildId),
      buildsOfClusters: () => clusters.buildsOfClusters(database.db),
      registryLogin: (workspaceId, image) =>
        cloud.registryLoginOf(database.db, cloudSecrets, workspaceId, image),
    },
  };
  const app = await buildApp(deps, options);
  const log: FastifyBaseLogger = app.log;
  // Operators listed in CUMULUS_STAFF_EMAILS are staff even if they signed up before being listed.
  const madeStaff = await identity.applyStaffEmails(database.db, config.staffEmails);
  if (madeStaff.length > 0) log.info({ users: madeStaff.join(', ') }, 'made staff from CUMULUS_STAFF_EMAILS');
  const mail = createMailDelivery(database.db, { smtpUrl: config.smtpUrl, from: config.mailFrom }, log);
  loops.set('mail-outbox', new Periodic('mail-outbox', 5_000, () => mail.deliverDue(), log));
  // Marked often enough that an outage of half a heartbeat timeout is noticed as one.
  const { heartbeatIntervalMs, heartbeatTimeoutMs } = config.clusters;
  const serving = new ServingClock(database.db, Math.min(heartbeatIntervalMs, heartbeatTimeoutMs / 6));
  // Serving means hearing instances: not before the HTTP server listens.
  const servingMarks = new Periodic(
    'serving',
    serving.markEveryMs,
    async () => {
      if (app.server.listening) await serving.mark();
      return false;
    },
    log,
  );
  await billing.ensureMeter(database.db);
  // Every domain's loops, all given the same context; their chores make up housekeeping.
  const context: LoopContext<AppDeps> = { deps, log, servingSince: () => serving.since() };
  const domainLoops = DOMAIN_MODULES.flatMap((domain) => domain.loops);
  for (const loop of domainLoops)
    if ('domain' in loop) loops.set(loop.name, new Runner(database.db, loop.domain(context), log));
    else if ('periodic' in loop)
      loops.set(loop.periodic, new Periodic(loop.periodic, loop.everyMs, () => loop.run(context), log));
  const housekeeping = new Periodic(
    'housekeeping',
    minutes(15),
    async () => {
      for (const loop of domainLoops) if ('chore' in loop) await loop.run(context);
      return false;
    },
    log,
  );
  const all = [servingMarks, ...loops.values(), housekeeping];

  return {
    app,
    database,
    deps,
    warm,
    startLoops: ({ readInterpreter = true } = {}) => {
      for (const loop of all) loop.start();
      // Reading the interpreter imports Dask and bokeh (seconds on a busy machine): done now, not
      // while the first package sync waits for it (clients give up on an answer after seconds).
      // Warm processes import the agent from where the tenancy puts it (local-sandbox.ts).
      if (warm.size > 0)
        void sandbox.tenancy().then(
          () => warm.fill(),
          () => undefined,
        );
      if (readInterpreter) {
        backends
          .standard()
          .builder?.interpreter()
          .catch(() => undefined);
        void sandbox.tenancy().then(
          (tenancy) =>
            tenancy.mode === 'users'
              ? log.info(
                  `local clusters and builds run as users of their own (uids from ${config.localIsolation.uidBase})`,
                )
              : log.warn(
                  `local clusters and builds run as this server's own user, so only its operator (staff) may start them: ${tenancy.reason} (see /docs/operations#who-runs-what)`,
                ),
          (err: Error) => log.error(`local clusters cannot start: ${err.message}`),
        );
      }
    },
    stopLoops: async () => {
      await Promise.all(all.map((loop) => loop.stop()));
    },
    async close({ graceMs } = {}) {
      // Requests and loops wind down together; the database closes once both are done.
      const [cut] = await Promise.all([
        graceMs === undefined ? app.close().then(() => 0) : drain(app, graceMs),
        Promise.all(
          all.map((loop) =>
            // Work still running after the grace gives its rows back: the next server takes them at once.
            loop instanceof Runner ? loop.stop({ abandonAfterMs: graceMs }) : loop.stop(),
          ),
        ),
      ]);
      mail.close();
      warm.close();
      closeSshConnections();
      if (ownsDatabase) await database.close();
      return cut;
    },
  };
}
