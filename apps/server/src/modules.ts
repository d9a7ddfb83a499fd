import type { DomainModule } from './domain-module.js';
import { batchModule } from './domains/batch/index.js';
import { billingModule } from './domains/billing/index.js';
import { cloudModule } from './domains/cloud/index.js';
import { type ClusterDeps, clustersModule } from './domains/clusters/index.js';
import { identityModule } from './domains/identity/index.js';
import { observabilityModule } from './domains/observability/index.js';
import { onboardingModule } from './domains/onboarding/index.js';
import { platformModule } from './domains/platform/index.js';
import { type SoftwareDeps, softwareModule } from './domains/software/index.js';
import { staffModule } from './domains/staff/index.js';

/** Everything the app's routes and loops are given: the kernel's deps and what lower domains ask of higher ones. */
export type AppDeps = ClusterDeps & SoftwareDeps;

/**
 * Every domain, lowest first: a domain imports only the faces of those before it (the boundaries
 * test holds it to this order). app.ts registers their routes and access resolvers in this order,
 * server.ts starts their loops, the boundaries test reads their tables.
 */
export const DOMAIN_MODULES: ReadonlyArray<DomainModule<AppDeps>> = [
  platformModule,
  identityModule,
  onboardingModule,
  softwareModule,
  clustersModule,
  observabilityModule,
  batchModule,
  billingModule,
  cloudModule,
  staffModule,
];
