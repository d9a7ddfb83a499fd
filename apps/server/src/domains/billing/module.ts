import {
  billingEvents,
  meters,
  organizationBilling,
  plans,
  stripeEvents,
  subscriptions,
  usageDaily,
  usageHourly,
  usageMinutes,
} from '../../db/schema/index.js';
import type { DomainModule, LoopContext, LoopNamesOf } from '../../domain-module.js';
import type { ClusterDeps } from '../clusters/index.js';
import { registerPricingRoutes } from './pricing/routes.js';
import { registerVmTypeRoutes } from './pricing/vm-type-routes.js';
import { registerSubscriptionRoutes } from './subscriptions/routes.js';
import { limitsDomain } from './usage/limits.js';
import { meterDomain, pruneUsage } from './usage/meter.js';
import { registerUsageRoutes } from './usage/routes.js';

const loops = [
  {
    name: 'metering',
    domain: ({ deps }: LoopContext<ClusterDeps>) =>
      meterDomain({
        db: deps.db,
        rates: {
          localCoreHourUsd: deps.config.usage.localCoreHourUsd,
          localGibHourUsd: deps.config.usage.localGibHourUsd,
        },
        minuteMs: deps.config.usage.minuteMs,
      }),
  },
  {
    name: 'limits',
    domain: ({ deps }: LoopContext<ClusterDeps>) => limitsDomain(deps, deps.config.usage.minuteMs),
  },
  {
    chore: 'prune usage',
    run: ({ deps }: LoopContext<ClusterDeps>) => pruneUsage(deps.db, deps.config.usage.retentionMs),
  },
] as const;

declare module '../../deps.js' {
  interface LoopNames extends LoopNamesOf<typeof loops> {}
}

/** The billing domain as the assembly sees it (domain-module.ts). */
export const billingModule: DomainModule<ClusterDeps> = {
  name: 'billing',
  routes: [registerUsageRoutes, registerPricingRoutes, registerSubscriptionRoutes, registerVmTypeRoutes],
  loops,
  accessResolvers: () => [],
  tables: {
    plans,
    organizationBilling,
    subscriptions,
    billingEvents,
    stripeEvents,
    usageMinutes,
    usageHourly,
    usageDaily,
    meters,
  },
};
