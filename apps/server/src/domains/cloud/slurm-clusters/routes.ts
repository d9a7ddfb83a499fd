import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { registerMachineRoutes } from '../machine-routes.js';
import { slurmClusterAnswer, slurmClusterBody } from './schemas.js';
import * as slurm from './service.js';

/** A workspace's Slurm cluster (the `slurm` backend): connected and disconnected by its admins, checked, shown with its health. */
export function registerSlurmClusterRoutes(app: App, deps: Deps): void {
  registerMachineRoutes(app, deps, {
    path: '/api/v2/slurm-clusters',
    item: 'cluster',
    body: slurmClusterBody,
    answer: slurmClusterAnswer,
    describe: {
      list: "The workspace's Slurm cluster (none or one) with its health (no private key).",
      add: "Connects the workspace's Slurm cluster (admins) once its login node answers sinfo for the partition; the private key is sealed and never returned. New clusters of the workspace then run as Slurm jobs.",
      check: 'Checks the Slurm cluster again now (admins) and answers it with its health.',
      remove: 'Disconnects the Slurm cluster (admins); refused while clusters run there.',
    },
    list: slurm.listClusters,
    add: slurm.connectCluster,
    check: slurm.checkClusterNow,
    remove: slurm.disconnectCluster,
  });
}
