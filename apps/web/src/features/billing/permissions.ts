import type { Program } from '@/data/pricing/program-query';
import { TEAM_MESSAGES } from '@/lib/team/messages';

// Who may change what of a plan (console.md section 6); the server decides, the page explains.

/** Why the caller may not change the plan (upgrade, downgrade, Enterprise), or null when they may. */
export function planChangeBlocked(program: Pick<Program, 'tier' | 'canChangePlan' | 'canUpdateStaff'>) {
  if (program.canUpdateStaff) return null;
  if (program.tier === 'enterprise') return TEAM_MESSAGES.contactEnterprise;
  return program.canChangePlan ? null : TEAM_MESSAGES.contactAdmin;
}

/** Why the caller may not edit the organization's credit and spend limits, or null when they may. */
export function limitsBlocked(program: Pick<Program, 'tier' | 'canUpdateLimits'>) {
  if (program.canUpdateLimits) return null;
  return program.tier === 'enterprise' ? TEAM_MESSAGES.contactEnterprise : TEAM_MESSAGES.contactAdmin;
}

/** Payment method, invoices and billing events are for organization admins (and staff). */
export const readsPayments = (program: Pick<Program, 'canUpdateLimits'>) => program.canUpdateLimits;
