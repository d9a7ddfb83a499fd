import type { RouteObject } from 'react-router';

import { lazyPage } from '@/app/lazy-page';
import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const notebooksRoutes: RouteObject[] = [
  {
    path: paths.notebooks,
    ...lazyPage(() => import('@/features/notebooks/NotebooksPage'), 'NotebooksPage'),
  },
];
