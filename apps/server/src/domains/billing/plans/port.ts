import type { PlanPort } from '../../identity/index.js';
import { creditsRenewAt } from './periods.js';
import { activePlan, activePlans, startFirstPlan } from './service.js';

/** What identity and clusters ask of billing's plans (their IdentityPorts, handed in by server.ts). */
export const planPort: PlanPort = {
  activePlan,
  activePlans: async (db, organizationIds) =>
    organizationIds.length === 0 ? new Map() : activePlans(db, organizationIds),
  startFirstPlan: (tx, organizationId) => startFirstPlan(tx, organizationId),
  renewsAt: () => creditsRenewAt(),
};
