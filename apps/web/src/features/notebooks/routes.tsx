import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const notebooksRoutes: RouteObject[] = [
  {
    path: paths.notebooks,
    ...lazyPage(() => import('@/features/notebooks/NotebooksPage'), 'NotebooksPage'),
  },
  {
    path: paths.notebookOpen,
    ...lazyPage(() => import('@/features/notebooks/OpenNotebookPage'), 'OpenNotebookPage'),
  },
];
