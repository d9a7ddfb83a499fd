import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const billingRoutes: RouteObject[] = [
  {
    path: paths.billing,
    ...lazyPage(() => import('@/features/billing/BillingPage'), 'BillingPage'),
  },
];

/** Public routes of this area: the product plan (pro) page, and the billing redirect (signs in first). */
export const publicBillingRoutes: RouteObject[] = [
  {
    path: paths.proPlan,
    ...lazyPage(() => import('@/features/billing/ProPlanPage'), 'ProPlanPage'),
  },
  {
    path: paths.billingRedirect,
    ...lazyPage(() => import('@/features/billing/BillingRedirectPage'), 'BillingRedirectPage'),
  },
];
