import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { shellPages } from '@/app/shell-pages';
import { PageMetaProvider } from '@/lib/page-meta';
import { stubApi } from '@/test/api-stub';

describe('an unknown address inside the console', () => {
  it('shows a not-found page with a link home, not Get Started', async () => {
    stubApi({ 'GET /api/v2/interactions/flag': [] });
    const router = createMemoryRouter([{ path: '/', children: shellPages }], {
      initialEntries: ['/no/such/page'],
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <PageMetaProvider>
          <RouterProvider router={router} />
        </PageMetaProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('404: Could not find that page or resource')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    expect(router.state.location.pathname).toBe('/no/such/page');
  });
});
