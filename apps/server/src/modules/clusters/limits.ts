import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clusters, workspaceMemberships } from '../../db/schema/index.js';
import { ApiError } from '../../http/errors.js';
import type { WorkspaceAccess } from '../access/workspace.js';
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
  if (inUse + extraCores > membership.coreLimit)
    throw coreLimitExceeded(membership.coreLimit, inUse, extraCores, access.workspace.name);
}
