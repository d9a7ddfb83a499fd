import type { DomainModule } from '../../domain-module.js';
import { registerStaffRoutes } from './routes.js';

/** The staff domain as the assembly sees it (domain-module.ts). */
export const staffModule: DomainModule = {
  name: 'staff',
  routes: [registerStaffRoutes],
  loops: [],
  accessResolvers: () => [],
  tables: {},
};
