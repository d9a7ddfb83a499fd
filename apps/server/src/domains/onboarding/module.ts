import {
  banners,
  clientInteractions,
  interactions,
  interactionTypes,
  userFlags,
} from '../../db/schema/index.js';
import type { DomainModule } from '../../domain-module.js';
import { registerInteractionRoutes } from './routes.js';

/** The onboarding domain as the assembly sees it (domain-module.ts). */
export const onboardingModule: DomainModule = {
  name: 'onboarding',
  routes: [registerInteractionRoutes],
  loops: [],
  accessResolvers: () => [],
  tables: { interactionTypes, interactions, userFlags, clientInteractions, banners },
};
