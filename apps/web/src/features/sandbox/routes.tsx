import type { RouteObject } from 'react-router';

import { paths } from '@/app/paths';

/** The public component showcase (spec section 2: /component-sandbox). */
export const sandboxRoutes: RouteObject[] = [
  {
    path: paths.componentSandbox,
    lazy: async () => ({
      Component: (await import('@/features/sandbox/ComponentSandboxPage')).ComponentSandboxPage,
    }),
  },
  {
    path: `${paths.componentSandbox}/auth-card`,
    lazy: async () => ({
      Component: (await import('@/features/sandbox/AuthCardPreviewPage')).AuthCardPreviewPage,
    }),
  },
];
