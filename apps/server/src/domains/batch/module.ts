import { batchJobs, runTasks } from '../../db/schema/index.js';
import type { DomainModule, LoopContext, LoopNamesOf } from '../../domain-module.js';
import type { ClusterDeps } from '../clusters/index.js';
import { batchAccessResolvers } from './access.js';
import { registerRunTaskRoutes } from './facing-routes.js';
import { jobDomain } from './reconcile.js';
import { registerJobRoutes } from './routes.js';

const loops = [
  {
    name: 'batch-jobs',
    domain: ({ deps, log }: LoopContext<ClusterDeps>) => jobDomain({ db: deps.db, loops: deps.loops, log }),
  },
] as const;

declare module '../../deps.js' {
  interface LoopNames extends LoopNamesOf<typeof loops> {}
}

/** The batch domain as the assembly sees it (domain-module.ts). */
export const batchModule: DomainModule<ClusterDeps> = {
  name: 'batch',
  routes: [registerRunTaskRoutes, registerJobRoutes],
  loops,
  accessResolvers: (deps) => batchAccessResolvers(deps.db),
  tables: { batchJobs, runTasks },
};
