import type { BillingEventsQuery } from '@/data/pricing/billing-events-query';

// Everything read of one organization's plan sits under `organization(id)`, so a plan change can
// refresh its usage and events at once (refresh.ts).
export const pricingKeys = {
  all: ['pricing'] as const,
  organization: (id: number) => [...pricingKeys.all, 'organization', id] as const,
  plan: (id: number) => [...pricingKeys.organization(id), 'plan'] as const,
  usage: (id: number) => [...pricingKeys.organization(id), 'usage'] as const,
  allEvents: (id: number) => [...pricingKeys.organization(id), 'events'] as const,
  events: (id: number, query: BillingEventsQuery) => [...pricingKeys.allEvents(id), query] as const,
  workspaces: () => [...pricingKeys.all, 'workspace'] as const,
  workspaceUsage: (workspaceId: number) => [...pricingKeys.workspaces(), workspaceId, 'usage'] as const,
};
