import type { QueryClient } from '@tanstack/react-query';

import { organizationKeys } from '@/data/organizations/keys';
import { pricingKeys } from '@/data/pricing/keys';
import type { Program } from '@/data/pricing/program-query';
import { subscriptionKeys } from '@/data/subscriptions/keys';

/**
 * After a plan change (console.md section 4): the answer is the updated program and replaces the
 * cached one; what it changes besides (usage percentages, events, the subscription, the Team
 * page's plan and limits) is read again.
 */
export function replaceProgram(queryClient: QueryClient, program: Program) {
  const id = program.organizationId;
  queryClient.setQueryData(pricingKeys.program(id), program);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: pricingKeys.usage(id) }),
    queryClient.invalidateQueries({ queryKey: pricingKeys.allEvents(id) }),
    queryClient.invalidateQueries({ queryKey: pricingKeys.workspaces() }),
    queryClient.invalidateQueries({ queryKey: subscriptionKeys.organization(id) }),
    queryClient.invalidateQueries({ queryKey: organizationKeys.details(id) }),
  ]);
}
