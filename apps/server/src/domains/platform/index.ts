// platform: what the server says of itself (health, deployment, docs) and the Python client it
// serves. It knows no other domain. Other domains import this file only.
export { registerClientRoutes } from './client/routes.js';
export { registerDeploymentRoutes } from './deployment/routes.js';
export { registerDocsRoutes } from './docs/routes.js';
export { registerHealthRoutes } from './health/routes.js';
