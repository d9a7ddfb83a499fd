// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// software: software environments (aliases, specs, builds), the package index and cache, and the
// build loop. Above identity; below clusters, which run on its builds (it learns nothing of them:
// server.ts hands in what it needs, as BuildLoopContext and collectEnvironments' options say).
// Other domains import this file only.

// Routes.
export { registerSoftwareRoutes } from './routes.js';
export { registerPackageIndexRoutes } from './index-routes.js';
export { registerPackageCacheRoutes } from './cache-routes.js';
export { registerBuildFacingRoutes } from './facing-routes.js';
export { resolveSoftwareToken } from './token.js';

// The build loop and housekeeping.
export { buildDomain } from './reconcile.js';
export { collectEnvironments } from './gc.js';

// What clusters need of environments.
export { DEFAULT_ENVIRONMENT, defaultEnvironmentBuild } from './default-environment.js';
export {
  aliasNameOf,
  buildForCluster,
  clusterEnvironmentReadiness,
  environmentArchiveFor,
  environmentReadiness,
  pythonFor,
} from './for-clusters.js';
