import type { RouteObject } from 'react-router';

import { lazyPage } from '@/app/lazy-page';
import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const billingRoutes: RouteObject[] = [
  {
    path: paths.billing,
    ...lazyPage(() => import('@/features/billing/BillingPage'), 'BillingPage'),
  },
];
