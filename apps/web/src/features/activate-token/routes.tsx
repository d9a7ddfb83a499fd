import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed in, outside the sidebar shell: the page has its own header (composed in app/router.tsx). */
export const activateTokenRoutes: RouteObject[] = [
  {
    path: paths.activateToken,
    ...lazyPage(() => import('@/features/activate-token/ActivateTokenPage'), 'ActivateTokenPage'),
  },
];
