import type { RouteObject } from 'react-router';

import { StaffOnly } from '@/components/staff-only';
import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

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
  // Every member of a job's workspace reaches it, from its cluster's page and the Dashboard's Jobs tab.
  { path: paths.batchJob, ...lazyPage(() => import('@/features/batch/job/BatchJobPage'), 'BatchJobPage') },
];
