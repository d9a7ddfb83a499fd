import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type * as React from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';

import { TooltipProvider } from '@/components/ui/tooltip';

/** Renders `element` at `url` inside a router and a fresh query client, as the console does. */
export function renderPage(element: React.ReactNode, { url = '/', path = '*' } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // Anywhere else the page sends the browser renders nothing (instead of a routing error).
  const elsewhere = path === '*' ? [] : [{ path: '*', element: null }];
  const router = createMemoryRouter([{ path, element }, ...elsewhere], { initialEntries: [url] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}
