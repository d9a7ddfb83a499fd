import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const billingRoutes: RouteObject[] = [
  {
    path: paths.billing,
    lazy: async () => ({ Component: (await import('@/features/billing/BillingPage')).BillingPage }),
  },
];
