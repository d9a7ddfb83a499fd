// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// cloud: a workspace's own cloud (the console's Cloud page): credentials, the setup of its
// network and roles, and which backend its new clusters run on. Above clusters and billing.
// Other domains import this file only.

// Its face to the assembly: routes and tables.
export { cloudModule } from './module.js';

// What server.ts gives the compute backends: where a workspace's clusters run, and how.
export { CLOUD_SECRET_PURPOSE } from './credentials.js';
export { awsPlacementOf } from './setup/aws-account.js';
export { gcpPlacementOf } from './setup/gcp-placement.js';
export { registryLoginOf } from './setup/docker.js';
export { chosenBackend } from './workspace-backend.js';
export {
  checkAllClusters as checkSlurmClusters,
  hasSlurmCluster,
  slurmClustersPort,
} from './slurm-clusters/service.js';
export { hasHosts as hasSshHosts, sshHostsPort } from './ssh-hosts/service.js';
