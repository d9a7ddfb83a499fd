import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const profileRoutes: RouteObject[] = [
  {
    path: paths.profile,
    ...lazyPage(() => import('@/features/profile/ProfilePage'), 'ProfilePage'),
  },
];
