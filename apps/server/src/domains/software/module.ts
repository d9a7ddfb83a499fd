import {
  packageFiles,
  softwareAliases,
  softwareBuildLogs,
  softwareBuilds,
  softwareSpecs,
} from '../../db/schema/index.js';
import type { DomainModule, LoopContext, LoopNamesOf } from '../../domain-module.js';
import { registerPackageCacheRoutes } from './cache-routes.js';
import { registerBuildFacingRoutes } from './facing-routes.js';
import { collectEnvironments } from './gc.js';
import { registerPackageIndexRoutes } from './index-routes.js';
import type { SoftwareDeps } from './ports.js';
import { buildDomain } from './reconcile.js';
import { registerSoftwareRoutes } from './routes.js';

const loops = [
  {
    name: 'software-builds',
    domain: ({ deps, log }: LoopContext<SoftwareDeps>) =>
      buildDomain({
        db: deps.db,
        loops: deps.loops,
        backends: deps.backends,
        dataDir: deps.config.dataDir,
        serverUrl: deps.config.publicUrl,
        log,
        buildEnded: deps.softwarePorts.buildEnded,
        registryLogin: deps.softwarePorts.registryLogin,
      }),
  },
  {
    chore: 'collect environments',
    run: ({ deps, log }: LoopContext<SoftwareDeps>) =>
      collectEnvironments(deps.db, deps.backends, {
        retentionMs: deps.config.software.retentionMs,
        dataDir: deps.config.dataDir,
        log,
        buildsOfClusters: deps.softwarePorts.buildsOfClusters,
      }),
  },
] as const;

declare module '../../deps.js' {
  interface LoopNames extends LoopNamesOf<typeof loops> {}
}

/** The software domain as the assembly sees it (domain-module.ts). */
export const softwareModule: DomainModule<SoftwareDeps> = {
  name: 'software',
  routes: [
    registerSoftwareRoutes,
    registerPackageIndexRoutes,
    registerPackageCacheRoutes,
    registerBuildFacingRoutes,
  ],
  loops,
  accessResolvers: () => [],
  tables: { softwareAliases, softwareSpecs, softwareBuilds, softwareBuildLogs, packageFiles },
};
