import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';
import { StaffOnly } from '@/app/shell/StaffOnly';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const batchRoutes: RouteObject[] = [
  {
    Component: StaffOnly,
    children: [
      {
        path: paths.batchJobs,
        lazy: async () => ({ Component: (await import('@/features/batch/BatchJobsPage')).BatchJobsPage }),
      },
    ],
  },
];
