import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const notebooksRoutes: RouteObject[] = [
  {
    path: paths.notebooks,
    lazy: async () => ({ Component: (await import('@/features/notebooks/NotebooksPage')).NotebooksPage }),
  },
];
