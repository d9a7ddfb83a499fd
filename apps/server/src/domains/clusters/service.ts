import { and, count, desc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { type Cluster, clusterEvents, clusters, type User } from '../../db/schema/index.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { z } from '../../http/zod.js';
import { clusterCertificate } from '../../lib/certificates.js';
import { randomHex, sha256 } from '../../lib/crypto.js';
import { ed25519KeyPair } from '../../lib/ssh-keys.js';
import { assertMayRunThere, type WorkspaceAccess } from '../identity/index.js';
import { setFlag } from '../onboarding/index.js';
import { assertClientDaskMatches, buildForCluster, defaultEnvironmentBuild } from '../software/index.js';
import { assertMayCreate, assertMayManage, type ClusterAccess, clusterNotFound } from './access.js';
import { desire, type Wants } from './desired.js';
import { parseDurationSeconds } from './durations.js';
import { attachStores } from './filestores/service.js';
import { clusterHardware, withDefaultInstanceTypes } from './hardware.js';
import {
  assertWithinCoreLimit,
  assertWithinNodeLimit,
  assertWithinSpotArmLimits,
  clusterCores,
  kindsOf,
  machinesOf,
} from './limits.js';
import type { ClusterDeps } from './ports.js';
import { clusterMachines, recordClusterResources } from './resources.js';
import type { CreateClusterBody, clientEventBody } from './schemas.js';
import { isLive, sqlLiveCluster, sqlResumableCluster, stateSentence } from './states.js';
import { assertNoClientTimeout } from './stop-timers.js';
import { recordState } from './transitions.js';

export const DEFAULT_IDLE_TIMEOUT_SECONDS = 20 * 60;
export const DEFAULT_WORKERS = 4;

// Sections of a client's dask config that are its own (they hold its API token) or name paths
// and addresses of the client's machine.
const CLIENT_ONLY_CONFIG = ['cumulus', 'coiled', 'temporary-directory', 'scheduler-address'];

function clusterDaskConfig(config: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const kept = Object.fromEntries(
    Object.entries(config ?? {}).filter(([k]) => !CLIENT_ONLY_CONFIG.includes(k)),
  );
  const distributed = kept.distributed;
  if (distributed && typeof distributed === 'object') {
    const { comm: _comm, dashboard: _dashboard, ...rest } = distributed as Record<string, unknown>;
    kept.distributed = rest;
  }
  return kept;
}

export interface CreateOptions {
  /**
   * More to write in the transaction that makes the cluster (what a caller makes with it, a batch
   * job say): the cluster and that are kept together or not at all. Refuses an existing cluster.
   */
  alsoWrite?: (tx: Db, clusterId: number) => Promise<void>;
}

/**
 * `POST clusters/account/{ws}/`: a new cluster, or the live one of that name (`existing`). A paused
 * cluster of that name is resumed.
 */
export async function createCluster(
  deps: ClusterDeps,
  access: WorkspaceAccess,
  asked: CreateClusterBody,
  options: CreateOptions = {},
) {
  const { db } = deps;
  const { user } = access;
  assertMayCreate(access);
  const schedulerOptions = asked.scheduler_options ?? {};
  const idle = schedulerOptions.idle_timeout ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
  const idleTimeoutSeconds = parseDurationSeconds(idle);
  if (idleTimeoutSeconds === null) throw badRequest(`"${String(idle)}" is not a valid idle_timeout.`);
  assertNoClientTimeout(schedulerOptions);
  const desiredWorkers = asked.workers ?? DEFAULT_WORKERS;
  const backend = await deps.backends.forWorkspace(access.workspace.id);
  await assertMayRunThere(db, backend, user, 'clusters', access.workspace.id);
  // A role naming no instance type runs the workspace's (what it launches is what it records).
  const typed = await withDefaultInstanceTypes(backend, access.workspace.id, asked);
  // What the cluster asked of the machines, refused (400 naming the field) where the backend cannot give it.
  const gpusOffered = backend.gpusOffered ? await backend.gpusOffered(access.workspace.id) : null;
  const hardware = clusterHardware(backend, typed, gpusOffered);
  // GPUs asked without an instance type chose the types that have them.
  const body = hardware.workerInstanceTypes
    ? { ...typed, worker_instance_types: hardware.workerInstanceTypes }
    : typed;
  const { workerOptions, workerCores: cores } = hardware;

  await deps.clusterPorts.assertMayStart(db, access.workspace, user.id);
  const machines = await clusterMachines(backend, access.workspace.id, body);
  const named = body.env_id != null || !!body.env_name;
  const fallback = named ? null : await defaultEnvironmentBuild(deps, user, access);
  const result = await desire(deps, async (tx, want) => {
    const [live] = await tx
      .select()
      .from(clusters)
      .where(
        and(
          eq(clusters.workspaceId, access.workspace.id),
          eq(clusters.name, body.name),
          // A live cluster's name is reused, not duplicated; a paused one is resumed.
          or(sqlLiveCluster, sqlResumableCluster),
        ),
      )
      .orderBy(desc(clusters.id))
      .limit(1)
      .for('update');
    if (live && (body.batch_job_ids?.length || options.alsoWrite))
      throw conflict(
        `A cluster named ${body.name} is running already; a batch job needs a cluster of its own.`,
        'CLUSTER_NAME_TAKEN',
      );
    if (live && live.desiredState !== 'paused') return { id: live.id, existing: true, restoring: false };
    if (live) {
      await resume(deps, tx, want, access, live, user);
      return { id: live.id, existing: true, restoring: false };
    }
    await assertWithinCoreLimit(
      tx,
      deps.identityPorts.plans,
      access,
      user.id,
      clusterCores(desiredWorkers, cores, hardware.schedulerCores),
    );
    await assertWithinNodeLimit(tx, deps.identityPorts.plans, access.organization, 1 + desiredWorkers);
    await assertWithinSpotArmLimits(
      tx,
      deps.identityPorts.plans,
      access.organization,
      kindsOf(machines, desiredWorkers, true),
    );
    const software = await buildForCluster(
      tx,
      access.workspace.id,
      backend,
      { id: body.env_id, name: body.env_name },
      [machines.workerArch, machines.schedulerArch],
    );
    if (software?.container)
      assertClientDaskMatches(
        body.env_id != null ? 'env_id' : 'env_name',
        software.container,
        body.local_versions,
      );
    const token = randomHex(32);
    const now = new Date();
    const tls = clusterCertificate();
    const ssh = ed25519KeyPair(`cumulus-${body.name}`);
    const { name, workers, worker_options, scheduler_options, environ, tags, dask_config, ...rest } = body;
    const [row] = await tx
      .insert(clusters)
      .values({
        workspaceId: access.workspace.id,
        creatorId: user.id,
        name,
        backendType: backend.type,
        desiredWorkers,
        workerCores: cores,
        idleTimeoutSeconds: Math.round(idleTimeoutSeconds),
        pauseOnExit: body.pause_on_exit ?? false,
        workerOptions,
        schedulerOptions,
        environ: environ ?? {},
        tags: tags ?? {},
        daskConfig: clusterDaskConfig(dask_config),
        options: rest,
        tokenHash: sha256(token),
        tokenBox: deps.secrets.encrypt(token),
        tlsCert: tls.cert,
        tlsKeyBox: deps.secrets.encrypt(tls.key),
        softwareBuildId: software?.buildId ?? fallback,
        sshKeyBox: deps.secrets.encrypt(ssh.privateKey),
        sshPublicKey: ssh.publicKey,
        stateReason: `Requested by ${user.username}`,
        stateUpdated: now,
        created: now,
        updated: now,
      })
      .returning();
    await recordClusterResources(tx, backend, row!, body, machines.spotWorkers, hardware.machines);
    if (body.batch_job_ids?.length)
      await deps.clusterPorts.attachBatchJobs(tx, access.workspace, row!.id, body.batch_job_ids, {
        inContainer: !!software?.container,
      });
    if (body.filestores_to_attach?.length) await attachStores(tx, row!, body.filestores_to_attach);
    await options.alsoWrite?.(tx, row!.id);
    await recordState(tx, row!.id, 'cluster', row!.id, name, 'pending', row!.stateReason, now);
    await recordState(tx, row!.id, 'cluster_infra', row!.id, name, 'queued', '', now);
    return { id: row!.id, existing: false, restoring: software?.queued ?? false };
  });
  if (!result.existing) await recordMilestones(db, user);
  if (result.restoring) deps.loops.wake('software-builds');
  if (body.batch_job_ids?.length) deps.loops.wake('batch-jobs');
  return { id: result.id, existing: result.existing };
}

/** Brings a paused cluster back (its creator's core limit permitting). */
async function resume(
  deps: ClusterDeps,
  tx: Db,
  want: Wants,
  access: WorkspaceAccess,
  cluster: Cluster,
  user: User,
) {
  await deps.clusterPorts.assertMayStart(tx, access.workspace, cluster.creatorId ?? user.id);
  if (cluster.creatorId !== null)
    await assertWithinCoreLimit(
      tx,
      deps.identityPorts.plans,
      access,
      cluster.creatorId,
      clusterCores(cluster.desiredWorkers, cluster.workerCores),
    );
  await assertWithinNodeLimit(
    tx,
    deps.identityPorts.plans,
    access.organization,
    1 + cluster.desiredWorkers,
    cluster.id,
  );
  const machines = await machinesOf(tx, cluster.id);
  await assertWithinSpotArmLimits(
    tx,
    deps.identityPorts.plans,
    access.organization,
    kindsOf(machines, cluster.desiredWorkers, true),
    cluster.id,
  );
  await want.run(cluster.id, `Resumed by ${user.username}`);
}

/** `desired-state` running: resumes a paused cluster; a running one stays as it is. */
export async function resumeCluster(deps: ClusterDeps, user: User, target: ClusterAccess): Promise<Cluster> {
  assertMayManage(user, target);
  await desire(deps, async (tx, want) => {
    const [cluster] = await tx
      .select()
      .from(clusters)
      .where(eq(clusters.id, target.cluster.id))
      .for('update');
    if (isLive(cluster!)) return;
    if (cluster!.state !== 'paused')
      throw badRequest(
        `${stateSentence(`Cluster ${cluster!.name}`, cluster!.state)}; create a new cluster instead.`,
        'CLUSTER_NOT_PAUSED',
      );
    await resume(deps, tx, want, target.access, cluster!, user);
  });
  const [row] = await deps.db.select().from(clusters).where(eq(clusters.id, target.cluster.id));
  return row!;
}

/** The `has-created-cluster` and `has-created-at-least-three-clusters` flags. */
async function recordMilestones(db: Db, user: User): Promise<void> {
  const [created] = await db.select({ n: count() }).from(clusters).where(eq(clusters.creatorId, user.id));
  const n = created?.n ?? 0;
  if (n >= 1) await setFlag(db, user.id, 'has-created-cluster', true);
  if (n >= 3) await setFlag(db, user.id, 'has-created-at-least-three-clusters', true);
}

/** `DELETE clusters/account/{ws}/id/{id}`: stop (or pause) the cluster, recording why. */
export async function stopCluster(
  deps: Pick<ClusterDeps, 'db' | 'loops'>,
  user: User,
  target: ClusterAccess,
  options: { reason?: string | undefined; pause?: boolean | undefined },
): Promise<Cluster> {
  assertMayManage(user, target);
  const reason = options.reason?.trim() || `Stopped by ${user.username}`;
  await requestStop(deps, target.cluster.id, options.pause ? 'paused' : 'stopped', reason);
  const [row] = await deps.db.select().from(clusters).where(eq(clusters.id, target.cluster.id));
  return row!;
}

/**
 * Asks for the cluster to stop (or pause) with the reason users will read; the first request
 * wins. For every part of the server that stops clusters (users, limits, jobs).
 */
export async function requestStop(
  deps: Pick<ClusterDeps, 'db' | 'loops'>,
  clusterId: number,
  desired: 'stopped' | 'paused',
  reason: string,
): Promise<boolean> {
  return desire(deps, (_tx, want) => want.stop(clusterId, desired, reason));
}

/** `GET clusters/account/{ws}/name/{name}`: the live (or, if asked, paused) cluster of that name. */
export async function findByName(db: Db, workspaceId: number, name: string, includePaused: boolean) {
  const [row] = await db
    .select()
    .from(clusters)
    .where(
      and(
        eq(clusters.workspaceId, workspaceId),
        eq(clusters.name, name),
        includePaused ? or(sqlLiveCluster, inArray(clusters.state, ['paused', 'pausing'])) : sqlLiveCluster,
      ),
    )
    .orderBy(desc(clusters.id))
    .limit(1);
  if (!row) throw clusterNotFound();
  return row;
}

/** What clients report about a cluster (`POST clusters/id/{id}/event`). */
export async function recordClientEvent(db: Db, clusterId: number, body: z.infer<typeof clientEventBody>) {
  await db.insert(clusterEvents).values({
    clusterId,
    kind: 'client',
    topic: body.topic ?? '',
    message: body.message ?? '',
    level: body.level ?? 20,
    data: {
      ...(body.extra_data ? { extra_data: body.extra_data } : {}),
      ...(body.duration != null ? { duration: body.duration } : {}),
      ...(body.timestamp != null ? { timestamp: body.timestamp } : {}),
    },
  });
}
