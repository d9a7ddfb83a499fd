import { createBrowserRouter, Outlet, ScrollRestoration } from 'react-router';

import { NotFoundPage } from '@/app/NotFoundPage';
import { paths } from '@/app/paths';
import { RouteErrorPage } from '@/app/RouteErrorPage';
import { LoadingSkeleton } from '@/components/loading-skeleton';
import { Page } from '@/components/page';

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

// Every screen is its own chunk: route.lazy loads the page module on first navigation.
export const router = createBrowserRouter([
  {
    Component: RootLayout,
    HydrateFallback: RouteFallback,
    ErrorBoundary: RouteErrorPage,
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('@/features/home/HomePage')).HomePage }),
      },
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
      // Tiny, and the error boundary needs it anyway, so it ships in the main chunk.
      { path: '*', Component: NotFoundPage },
    ],
  },
]);
