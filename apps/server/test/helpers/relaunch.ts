import type { LaunchSpec } from '../../src/compute/backend.js';
import type { clusters, instances } from '../../src/db/schema/index.js';

/**
 * The launch of an instance that already runs, asked again (as after a crash between the cloud's
 * answer and writing it down): a VM backend must adopt the machine it finds, not make another.
 */
export function repeatedLaunch(
  row: typeof instances.$inferSelect,
  cluster: typeof clusters.$inferSelect,
  instanceTypes: string[],
  serverUrl: string,
): LaunchSpec {
  return {
    instanceId: row.id,
    backendId: row.backendId,
    role: row.role,
    name: row.name,
    clusterId: cluster.id,
    workspaceId: cluster.workspaceId,
    instanceTypes,
    clusterToken: 'unused',
    serverUrl,
    unreachableTimeoutMs: 60_000,
  };
}
