import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** The public component showcase (/component-sandbox). */
export const sandboxRoutes: RouteObject[] = [
  {
    path: paths.componentSandbox,
    ...lazyPage(() => import('@/features/sandbox/ComponentSandboxPage'), 'ComponentSandboxPage'),
  },
  {
    path: `${paths.componentSandbox}/auth-card`,
    ...lazyPage(() => import('@/features/sandbox/AuthCardPreviewPage'), 'AuthCardPreviewPage'),
  },
];
