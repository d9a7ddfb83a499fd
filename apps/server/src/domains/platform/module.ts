import type { DomainModule } from '../../domain-module.js';
import { registerClientRoutes } from './client/routes.js';
import { registerDeploymentRoutes } from './deployment/routes.js';
import { registerDocsRoutes } from './docs/routes.js';
import { registerHealthRoutes } from './health/routes.js';

/** The platform domain as the assembly sees it (domain-module.ts). */
export const platformModule: DomainModule = {
  name: 'platform',
  routes: [registerHealthRoutes, registerDeploymentRoutes, registerDocsRoutes, registerClientRoutes],
  loops: [],
  accessResolvers: () => [],
  tables: {},
};
