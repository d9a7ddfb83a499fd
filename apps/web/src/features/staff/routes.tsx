import type { RouteObject } from 'react-router';

import { lazyPage } from '@/app/lazy-page';
import { paths } from '@/app/paths';
import { StaffOnly } from '@/app/shell/StaffOnly';

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
