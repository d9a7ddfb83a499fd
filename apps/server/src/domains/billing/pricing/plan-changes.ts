import type { Plan, User } from '../../../db/schema/index.js';
import { permissionDenied } from '../../../http/errors.js';

/** An Enterprise plan changes through us (staff), not its admins: what they are told. */
export const ENTERPRISE_CONTACT = 'Contact us to make changes to your Enterprise plan';

/** Refuses a plan change of an Enterprise organization to anyone but staff. */
export function assertMayChangePlan(user: User, plan: Pick<Plan, 'tier'>): void {
  if (plan.tier === 'enterprise' && !user.isStaff) throw permissionDenied(ENTERPRISE_CONTACT);
}
