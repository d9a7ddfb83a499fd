// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// software: software environments (aliases, specs, builds), the package index and cache, and the
// build loop. Above identity; below clusters, which run on its builds (it learns nothing of them:
// server.ts hands in what it needs, as BuildLoopContext and collectEnvironments' options say).
// Other domains import this file only.

// Its face to the assembly: routes, the build loop and the environments' collection, its tables;
// what it asks of clusters (SoftwarePorts, handed in by server.ts); build machines' tokens.
export { softwareModule } from './module.js';
export type { SoftwareDeps, SoftwarePorts } from './ports.js';
export { resolveSoftwareToken } from './token.js';

// What clusters need of environments.
export { DEFAULT_ENVIRONMENT, defaultEnvironmentBuild } from './default-environment.js';
export {
  aliasNameOf,
  assertClientDaskMatches,
  buildForCluster,
  clusterEnvironmentReadiness,
  environmentArchiveFor,
  environmentReadiness,
  pythonFor,
  containerFor,
} from './for-clusters.js';
