import type { RouteObject } from 'react-router';

import { StaffOnly } from '@/components/staff-only';
import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const staffRoutes: RouteObject[] = [
  {
    Component: StaffOnly,
    children: [
      {
        path: paths.staff,
        ...lazyPage(() => import('@/features/staff/StaffPage'), 'StaffPage'),
      },
    ],
  },
];
