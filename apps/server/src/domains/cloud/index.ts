// biome-ignore-all assist/source/organizeImports: a domain's face reads by topic, not by file.
// cloud: a workspace's own cloud (the console's Cloud page): credentials, the setup of its
// network and roles, and which backend its new clusters run on. Above clusters and billing.
// Other domains import this file only.

// Routes.
export { registerCloudRoutes } from './routes.js';
export { registerSetupRoutes } from './setup/routes.js';

// What server.ts gives the compute backends: where a workspace's clusters run, and how.
export { CLOUD_SECRET_PURPOSE } from './credentials.js';
export { awsPlacementOf } from './setup/aws-account.js';
export { chosenBackend } from './workspace-backend.js';
