import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { id, text, z } from '../../../http/zod.js';
import { workspaceOf } from '../../identity/index.js';
import { registerMachineRoutes } from '../machine-routes.js';
import { slurmClusterAnswer, slurmClusterBody, slurmLoginKind, slurmTokenBody } from './schemas.js';
import * as slurm from './service.js';

/** A workspace's Slurm cluster (the `slurm` backend): connected and disconnected by its admins, checked, shown with its health. */
export function registerSlurmClusterRoutes(app: App, deps: Deps): void {
  registerMachineRoutes(app, deps, {
    path: '/api/v2/slurm-clusters',
    item: 'cluster',
    body: slurmClusterBody,
    answer: slurmClusterAnswer,
    listFields: {
      logins: z
        .array(slurmLoginKind)
        .describe(
          "How this server accepts a new cluster's login node (`local` only where its operator allows it).",
        ),
    },
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
  app.put(
    '/api/v2/slurm-clusters/:account/:cluster/token',
    {
      config: { auth: 'user', workspace: 'admin' },
      schema: {
        tags: ['cloud'],
        description:
          "Gives the workspace's Slurm cluster reached through slurmrestd a new token (admins), once slurmrestd takes it; sealed, never returned. Its running clusters use it from their next call.",
        params: z.object({ account: text(64), cluster: id }),
        body: slurmTokenBody,
        response: { 200: slurmClusterAnswer },
      },
    },
    async (request) => {
      const { cluster } = request.params as { cluster: number };
      const { token } = request.body as z.infer<typeof slurmTokenBody>;
      return slurm.replaceToken(deps, workspaceOf(request), cluster, token);
    },
  );
}
