import type { QueryClient } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { pricingKeys } from '@/data/pricing/keys';
import type { Plan } from '@/data/pricing/plan-query';
import { subscriptionKeys } from '@/data/subscriptions/keys';

/**
 * After a plan change: the answer is the updated plan and replaces the
 * cached one; what it changes besides (usage percentages, events, the subscription, the Team
 * page's plan and limits) is read again.
 */
export function replacePlan(queryClient: QueryClient, plan: Plan) {
  const id = plan.organizationId;
  queryClient.setQueryData(pricingKeys.plan(id), plan);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: pricingKeys.usage(id) }),
    queryClient.invalidateQueries({ queryKey: pricingKeys.allEvents(id) }),
    queryClient.invalidateQueries({ queryKey: pricingKeys.workspaces() }),
    queryClient.invalidateQueries({ queryKey: subscriptionKeys.organization(id) }),
    queryClient.invalidateQueries({ queryKey: organizationKeys.details(id) }),
  ]);
}
