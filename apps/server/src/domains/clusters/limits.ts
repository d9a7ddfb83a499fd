import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { clusters, instanceSpecs } from '../../db/schema/index.js';
import { ApiError } from '../../http/errors.js';
import type { WorkspaceAccess } from '../identity/index.js';
import { lockCoreLimit, type PlanPort, workspaceIdsOf } from '../identity/index.js';
import { sqlLiveCluster } from './states.js';

/** Cores a cluster counts for: its scheduler's (one where not known), `workerCores` per worker. */
export const clusterCores = (workers: number, workerCores: number, schedulerCores = 1) =>
  schedulerCores + workers * workerCores;

export const coreLimitExceeded = (limit: number, inUse: number, needed: number, workspace: string) => {
  const message = `This would use ${inUse + needed} cores in workspace ${workspace}, over your core limit of ${limit} (${inUse} in use by your running clusters). Stop a cluster or ask a workspace admin to raise your core limit.`;
  return new ApiError(403, { detail: message, message, code: 'CORE_LIMIT_EXCEEDED', core_limit: limit });
};

/**
 * Refuses when the caller's running clusters in the workspace plus `extraCores` exceed their core
 * limit. Runs inside the transaction that adds the cores, holding the membership row, so two
 * concurrent creates cannot both squeeze under the limit. Members without a membership row
 * (organization admins) have no limit.
 */
export async function assertWithinCoreLimit(
  tx: Db,
  plans: PlanPort,
  access: WorkspaceAccess,
  userId: number,
  extraCores: number,
  excludeClusterId?: number,
): Promise<void> {
  const coreLimit = await lockCoreLimit(tx, access.workspace.id, userId);
  if (coreLimit === null) return;
  // The plan caps every member's core limit.
  const { coreLimitMembers } = await plans.activePlan(tx, access.organization.id);
  const limit = coreLimitMembers === null ? coreLimit : Math.min(coreLimit, coreLimitMembers);
  const [used] = await tx
    .select({
      cores: sql<number>`coalesce(sum(coalesce(${instanceSpecs.cores}, 1) + ${clusters.desiredWorkers} * ${clusters.workerCores}), 0)::int`,
    })
    .from(clusters)
    .leftJoin(
      instanceSpecs,
      and(eq(instanceSpecs.clusterId, clusters.id), eq(instanceSpecs.role, 'scheduler')),
    )
    .where(
      and(
        eq(clusters.workspaceId, access.workspace.id),
        eq(clusters.creatorId, userId),
        sqlLiveCluster,
        excludeClusterId === undefined ? undefined : ne(clusters.id, excludeClusterId),
      ),
    );
  const inUse = used?.cores ?? 0;
  if (inUse + extraCores > limit) throw coreLimitExceeded(limit, inUse, extraCores, access.workspace.name);
}

/** A scheduler counts the cores of its machine (1 when its machine is not known), each worker its threads. */
const coresOf = sql<number>`coalesce(sum(coalesce(${instanceSpecs.cores}, 1) + ${clusters.desiredWorkers} * ${clusters.workerCores}), 0)::int`;

/** Cores the live clusters of a workspace (of one creator, if given) hold. */
export async function liveCores(db: Db, workspaceId: number, creatorId?: number): Promise<number> {
  const [row] = await db
    .select({ cores: coresOf })
    .from(clusters)
    .leftJoin(
      instanceSpecs,
      and(eq(instanceSpecs.clusterId, clusters.id), eq(instanceSpecs.role, 'scheduler')),
    )
    .where(
      and(
        eq(clusters.workspaceId, workspaceId),
        sqlLiveCluster,
        creatorId === undefined ? undefined : eq(clusters.creatorId, creatorId),
      ),
    );
  return row?.cores ?? 0;
}

/** Instances (a scheduler and its workers) that live clusters of an organization want. */
export async function nodesInUse(tx: Db, organizationId: number, excludeClusterId?: number): Promise<number> {
  const [used] = await tx
    .select({ nodes: sql<number>`coalesce(sum(1 + ${clusters.desiredWorkers}), 0)::int` })
    .from(clusters)
    .where(
      and(
        inArray(clusters.workspaceId, workspaceIdsOf(organizationId)),
        sqlLiveCluster,
        excludeClusterId === undefined ? undefined : ne(clusters.id, excludeClusterId),
      ),
    );
  return used?.nodes ?? 0;
}

/** Refuses more instances than the organization's plan allows at once (its node limit). */
export async function assertWithinNodeLimit(
  tx: Db,
  plans: PlanPort,
  organization: { id: number; name: string },
  extraNodes: number,
  excludeClusterId?: number,
): Promise<void> {
  const { nodeLimit } = await plans.activePlan(tx, organization.id);
  if (nodeLimit === null) return;
  const inUse = await nodesInUse(tx, organization.id, excludeClusterId);
  if (inUse + extraNodes <= nodeLimit) return;
  const message = `This would run ${inUse + extraNodes} instances in organization ${organization.name}, over its plan's node limit of ${nodeLimit} (${inUse} in use). Stop a cluster, or ask an organization admin to change the plan.`;
  throw new ApiError(403, { detail: message, message, code: 'NODE_LIMIT_REACHED', node_limit: nodeLimit });
}

/** Instances as the plan's spot and ARM usage limits count them. */
export interface InstanceKinds {
  spot: number;
  arm: number;
}

/** What a cluster's machines are: the scheduler's and the workers' architecture, and spot workers. */
export interface ClusterMachines {
  schedulerArch: string;
  workerArch: string;
  spotWorkers: boolean;
}

const ARM = 'aarch64';

/** The spot and ARM instances `workers` workers (and the scheduler, when counted) of such a cluster are. */
export const kindsOf = (m: ClusterMachines, workers: number, withScheduler: boolean): InstanceKinds => ({
  spot: m.spotWorkers ? workers : 0,
  arm: (withScheduler && m.schedulerArch === ARM ? 1 : 0) + (m.workerArch === ARM ? workers : 0),
});

/** A cluster's machines, as its instance specs recorded them. */
export async function machinesOf(tx: Db, clusterId: number): Promise<ClusterMachines> {
  const specs = await tx
    .select({ role: instanceSpecs.role, arch: instanceSpecs.arch, spot: instanceSpecs.spot })
    .from(instanceSpecs)
    .where(eq(instanceSpecs.clusterId, clusterId));
  const scheduler = specs.find((s) => s.role === 'scheduler');
  const worker = specs.find((s) => s.role === 'worker');
  return {
    schedulerArch: scheduler?.arch ?? '',
    workerArch: worker?.arch ?? '',
    spotWorkers: worker?.spot ?? false,
  };
}

/** Spot and ARM instances that live clusters of an organization want. */
export async function kindsInUse(
  tx: Db,
  organizationId: number,
  excludeClusterId?: number,
): Promise<InstanceKinds> {
  const scheduler = alias(instanceSpecs, 'scheduler_spec');
  const worker = alias(instanceSpecs, 'worker_spec');
  const [used] = await tx
    .select({
      spot: sql<number>`coalesce(sum(case when ${worker.spot} then ${clusters.desiredWorkers} else 0 end), 0)::int`,
      arm: sql<number>`coalesce(sum((case when ${scheduler.arch} = ${ARM} then 1 else 0 end) + (case when ${worker.arch} = ${ARM} then ${clusters.desiredWorkers} else 0 end)), 0)::int`,
    })
    .from(clusters)
    .leftJoin(scheduler, and(eq(scheduler.clusterId, clusters.id), eq(scheduler.role, 'scheduler')))
    .leftJoin(worker, and(eq(worker.clusterId, clusters.id), eq(worker.role, 'worker')))
    .where(
      and(
        inArray(clusters.workspaceId, workspaceIdsOf(organizationId)),
        sqlLiveCluster,
        excludeClusterId === undefined ? undefined : ne(clusters.id, excludeClusterId),
      ),
    );
  return { spot: used?.spot ?? 0, arm: used?.arm ?? 0 };
}

const KIND_LIMITS = [
  { kind: 'spot', field: 'spot_usage_limit', code: 'SPOT_USAGE_LIMIT_REACHED', name: 'spot' },
  { kind: 'arm', field: 'arm_usage_limit', code: 'ARM_USAGE_LIMIT_REACHED', name: 'ARM' },
] as const;

/**
 * Refuses more spot or ARM instances than the organization's plan allows at once (its spot and
 * ARM usage limits; null is no limit, 0 allows none). Only what a change adds is held against
 * them: a cluster with neither passes whatever the organization runs.
 */
export async function assertWithinSpotArmLimits(
  tx: Db,
  plans: PlanPort,
  organization: { id: number; name: string },
  extra: InstanceKinds,
  excludeClusterId?: number,
): Promise<void> {
  if (extra.spot === 0 && extra.arm === 0) return;
  const plan = await plans.activePlan(tx, organization.id);
  const limits = { spot: plan.spotUsageLimit, arm: plan.armUsageLimit };
  if (limits.spot === null && limits.arm === null) return;
  const inUse = await kindsInUse(tx, organization.id, excludeClusterId);
  for (const { kind, field, code, name } of KIND_LIMITS) {
    const limit = limits[kind];
    if (limit === null || extra[kind] === 0 || inUse[kind] + extra[kind] <= limit) continue;
    const allowed =
      limit === 0
        ? `its plan allows no ${name} instances`
        : `over its plan's ${name} usage limit of ${limit} (${inUse[kind]} running)`;
    const message = `This would run ${inUse[kind] + extra[kind]} ${name} instances in organization ${organization.name}, ${allowed}. Stop a cluster, choose other instances, or ask an organization admin to change the plan.`;
    throw new ApiError(403, { detail: message, message, code, [field]: limit });
  }
}
