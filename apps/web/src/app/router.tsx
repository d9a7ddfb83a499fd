import { createBrowserRouter, Outlet, ScrollRestoration } from 'react-router';
import { RouteErrorPage } from '@/app/RouteErrorPage';
import { redirectRoutes } from '@/app/redirect-routes';
import { prefetchShell } from '@/app/shell/prefetch';
import { RequireAuth } from '@/app/shell/RequireAuth';
import { shellPages } from '@/app/shell-pages';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page } from '@/components/page';
import { activateTokenRoutes } from '@/features/activate-token/routes';
import { authRoutes } from '@/features/auth/routes';
import { publicBillingRoutes } from '@/features/billing/routes';
import { sandboxRoutes } from '@/features/sandbox/routes';
import { tagRoutes } from '@/features/tags/routes';
import { queryClient } from '@/lib/api/query-client';
import { lazyPage } from '@/lib/lazy-page';

function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

function RouteFallback() {
  return (
    <Page>
      <LoadingSkeleton variant="page" />
    </Page>
  );
}

/**
 * The console's routes, composed from each feature's routes.tsx. Every page is its own chunk
 * (route.lazy), and so is the signed-in shell, so the public pages never load it.
 * To add a signed-in page: export it from features/<area>/routes.tsx and list that array below.
 */
export const router = createBrowserRouter([
  {
    Component: RootLayout,
    HydrateFallback: RouteFallback,
    ErrorBoundary: RouteErrorPage,
    children: [
      ...authRoutes,
      ...publicBillingRoutes,
      ...sandboxRoutes,
      ...tagRoutes,
      ...redirectRoutes,
      {
        Component: RequireAuth,
        children: [
          ...activateTokenRoutes,
          {
            ...lazyPage(() => import('@/app/shell/AppShell'), 'AppShell'),
            // Route loaders run beside `lazy`: the shell's data is on its way while its code loads.
            // Once per entry into the shell, not on every navigation inside it.
            loader: () => {
              void prefetchShell(queryClient);
              return null;
            },
            shouldRevalidate: () => false,
            children: shellPages,
          },
        ],
      },
    ],
  },
]);
