import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { clusters, instanceSpecs } from '../../../db/schema/index.js';
import { nodesInUse } from '../../clusters/limits.js';
import { sqlLiveCluster } from '../../clusters/states.js';
import type { WorkspaceAccess } from '../../identity/access/workspace.js';
import { activeProgram } from '../../identity/plans/programs.js';

/** A scheduler counts the cores of its machine (1 when its machine is not known), each worker its threads. */
const coresOf = sql<number>`coalesce(sum(coalesce(${instanceSpecs.cores}, 1) + ${clusters.desiredWorkers} * ${clusters.workerCores}), 0)::int`;

/** `GET /api/v1/{ws}/usage/cores/`: cores in use now against the caller's limit, and the plan's nodes. */
export async function coreUsage(db: Db, access: WorkspaceAccess, userId: number) {
  const live = and(eq(clusters.workspaceId, access.workspace.id), sqlLiveCluster);
  const cores = (where: SQL | undefined) =>
    db
      .select({ cores: coresOf })
      .from(clusters)
      .leftJoin(
        instanceSpecs,
        and(eq(instanceSpecs.clusterId, clusters.id), eq(instanceSpecs.role, 'scheduler')),
      )
      .where(where);
  const [[mine], [all], nodes, program] = await Promise.all([
    cores(and(live, eq(clusters.creatorId, userId))),
    cores(live),
    nodesInUse(db, access.organization.id),
    activeProgram(db, access.organization.id),
  ]);
  const own = access.membership?.coreLimit ?? null;
  const cap = program.coreLimitMembers;
  return {
    account: access.workspace.slug,
    cores_used: mine?.cores ?? 0,
    core_limit: own === null ? null : cap === null ? own : Math.min(own, cap),
    workspace_cores_used: all?.cores ?? 0,
    organization_nodes_used: nodes,
    node_limit: program.nodeLimit,
  };
}
