import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clusters, workspaceMemberships, workspaces } from '../../db/schema/index.js';
import { ApiError } from '../../http/errors.js';
import type { WorkspaceAccess } from '../access/workspace.js';
import { activeProgram } from '../pricing/programs.js';
import { sqlLiveCluster } from './states.js';

/** Cores a cluster counts for: one for the scheduler, `workerCores` per worker. */
export const clusterCores = (workers: number, workerCores: number) => 1 + workers * workerCores;

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
  access: WorkspaceAccess,
  userId: number,
  extraCores: number,
  excludeClusterId?: number,
): Promise<void> {
  const [membership] = await tx
    .select({ coreLimit: workspaceMemberships.coreLimit })
    .from(workspaceMemberships)
    .where(
      and(eq(workspaceMemberships.workspaceId, access.workspace.id), eq(workspaceMemberships.userId, userId)),
    )
    .for('update');
  if (!membership) return;
  // The plan caps every member's core limit.
  const { coreLimitMembers } = await activeProgram(tx, access.organization.id);
  const limit =
    coreLimitMembers === null ? membership.coreLimit : Math.min(membership.coreLimit, coreLimitMembers);
  const [used] = await tx
    .select({
      cores: sql<number>`coalesce(sum(1 + ${clusters.desiredWorkers} * ${clusters.workerCores}), 0)::int`,
    })
    .from(clusters)
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

/** Instances (a scheduler and its workers) that live clusters of an organization want. */
export async function nodesInUse(tx: Db, organizationId: number, excludeClusterId?: number): Promise<number> {
  const [used] = await tx
    .select({ nodes: sql<number>`coalesce(sum(1 + ${clusters.desiredWorkers}), 0)::int` })
    .from(clusters)
    .innerJoin(workspaces, eq(workspaces.id, clusters.workspaceId))
    .where(
      and(
        eq(workspaces.organizationId, organizationId),
        sqlLiveCluster,
        excludeClusterId === undefined ? undefined : ne(clusters.id, excludeClusterId),
      ),
    );
  return used?.nodes ?? 0;
}

/** Refuses more instances than the organization's plan allows at once (its node limit). */
export async function assertWithinNodeLimit(
  tx: Db,
  organization: { id: number; name: string },
  extraNodes: number,
  excludeClusterId?: number,
): Promise<void> {
  const { nodeLimit } = await activeProgram(tx, organization.id);
  if (nodeLimit === null) return;
  const inUse = await nodesInUse(tx, organization.id, excludeClusterId);
  if (inUse + extraNodes <= nodeLimit) return;
  const message = `This would run ${inUse + extraNodes} instances in organization ${organization.name}, over its plan's node limit of ${nodeLimit} (${inUse} in use). Stop a cluster, or ask an organization admin to change the plan.`;
  throw new ApiError(403, { detail: message, message, code: 'NODE_LIMIT_REACHED', node_limit: nodeLimit });
}
