import type { Plan } from '@/data/pricing/plan-query';
import { TEAM_MESSAGES } from '@/lib/team/messages';

// Who may change what of a plan; the server decides, the page explains.

/** Why the caller may not change the plan (upgrade, downgrade, Enterprise), or null when they may. */
export function planChangeBlocked(plan: Pick<Plan, 'tier' | 'canChangePlan' | 'canUpdateStaff'>) {
  if (plan.canUpdateStaff) return null;
  if (plan.tier === 'enterprise') return TEAM_MESSAGES.contactEnterprise;
  return plan.canChangePlan ? null : TEAM_MESSAGES.contactAdmin;
}

/** Why the caller may not edit the organization's credit and spend limits, or null when they may. */
export function limitsBlocked(plan: Pick<Plan, 'tier' | 'canUpdateLimits'>) {
  if (plan.canUpdateLimits) return null;
  return plan.tier === 'enterprise' ? TEAM_MESSAGES.contactEnterprise : TEAM_MESSAGES.contactAdmin;
}

/** Payment method, invoices and billing events are for organization admins (and staff). */
export const readsPayments = (plan: Pick<Plan, 'canUpdateLimits'>) => plan.canUpdateLimits;
