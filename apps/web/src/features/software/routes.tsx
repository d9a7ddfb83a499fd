import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const softwareRoutes: RouteObject[] = [
  {
    path: paths.software,
    lazy: async () => ({ Component: (await import('@/features/software/SoftwarePage')).SoftwarePage }),
  },
];
