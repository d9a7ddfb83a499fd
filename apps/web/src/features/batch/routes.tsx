import type { RouteObject } from 'react-router';

import { lazyPage } from '@/app/lazy-page';
import { paths } from '@/app/paths';
import { StaffOnly } from '@/app/shell/StaffOnly';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const batchRoutes: RouteObject[] = [
  {
    Component: StaffOnly,
    children: [
      {
        path: paths.batchJobs,
        ...lazyPage(() => import('@/features/batch/BatchJobsPage'), 'BatchJobsPage'),
      },
    ],
  },
];
