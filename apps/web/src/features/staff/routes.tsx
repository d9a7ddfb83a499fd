import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';
import { StaffOnly } from '@/app/shell/StaffOnly';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const staffRoutes: RouteObject[] = [
  {
    Component: StaffOnly,
    children: [
      {
        path: paths.staff,
        lazy: async () => ({ Component: (await import('@/features/staff/StaffPage')).StaffPage }),
      },
    ],
  },
];
