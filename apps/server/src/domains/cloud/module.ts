import {
  cloudCredentials,
  cloudSetupAttempts,
  cloudSetupRegions,
  cloudSetups,
  slurmClusters,
  sshHosts,
  sshPlacements,
} from '../../db/schema/index.js';
import type { DomainModule } from '../../domain-module.js';
import { minutes } from '../../lib/time.js';
import { registerCloudRoutes } from './routes.js';
import { registerSetupRoutes } from './setup/routes.js';
import { registerSlurmClusterRoutes } from './slurm-clusters/routes.js';
import { checkAllClusters } from './slurm-clusters/service.js';
import { registerSshHostRoutes } from './ssh-hosts/routes.js';
import { checkAllHosts } from './ssh-hosts/service.js';

/** SSH hosts are checked this often (reachable with the pinned key, Dask there, what is free). */
const SSH_HOST_CHECK_MS = minutes(5);

/** The cloud domain as the assembly sees it (domain-module.ts). */
export const cloudModule: DomainModule = {
  name: 'cloud',
  routes: [registerCloudRoutes, registerSetupRoutes, registerSshHostRoutes, registerSlurmClusterRoutes],
  // SSH hosts' health (reachable with the pinned key, Dask there, what is free) and Slurm clusters'
  // (their login node, the partition), on a period of their own.
  loops: [
    {
      periodic: 'ssh-hosts',
      everyMs: SSH_HOST_CHECK_MS,
      run: async ({ deps }) => {
        await checkAllHosts(deps.db, deps.cloudSecrets, deps.config.sshWarmProcesses);
        await checkAllClusters(deps.db, deps.cloudSecrets);
        return false;
      },
    },
  ],
  accessResolvers: () => [],
  tables: {
    cloudCredentials,
    cloudSetupAttempts,
    cloudSetups,
    cloudSetupRegions,
    sshHosts,
    sshPlacements,
    slurmClusters,
  },
};
