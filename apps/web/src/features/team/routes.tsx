import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const teamRoutes: RouteObject[] = [
  {
    path: paths.team,
    lazy: async () => ({ Component: (await import('@/features/team/TeamPage')).TeamPage }),
  },
];
