import type { Db } from '../../../db/client.js';
import { liveCores, nodesInUse } from '../../clusters/index.js';
import type { WorkspaceAccess } from '../../identity/index.js';
import { activePlan } from '../plans/service.js';

/** `GET /api/v1/{ws}/usage/cores/`: cores in use now against the caller's limit, and the plan's nodes. */
export async function coreUsage(db: Db, access: WorkspaceAccess, userId: number) {
  const [mine, all, nodes, plan] = await Promise.all([
    liveCores(db, access.workspace.id, userId),
    liveCores(db, access.workspace.id),
    nodesInUse(db, access.organization.id),
    activePlan(db, access.organization.id),
  ]);
  const own = access.membership?.coreLimit ?? null;
  const cap = plan.coreLimitMembers;
  return {
    account: access.workspace.slug,
    cores_used: mine,
    core_limit: own === null ? null : cap === null ? own : Math.min(own, cap),
    workspace_cores_used: all,
    organization_nodes_used: nodes,
    node_limit: plan.nodeLimit,
  };
}
