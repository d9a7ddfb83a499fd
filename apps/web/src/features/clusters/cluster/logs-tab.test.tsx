import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { TooltipProvider } from '@/components/ui/tooltip';
import type { ClusterDetails } from '@/data/clusters/cluster-details-query';
import type { ClusterContext } from '@/features/clusters/cluster/cluster-context';
import { ClusterLogsTab } from '@/features/clusters/cluster/logs-tab';

const now = new Date().toISOString();
const cluster = {
  id: 5,
  name: 'etl',
  created: now,
  currentState: { state: 'stopped', reason: '', updated: '2000-01-01T00:00:00.000000+00:00' },
  account: { id: 1, slug: 'acme', name: 'Acme' },
  scheduler: null,
  workers: [],
} as unknown as ClusterDetails;

/** The Logs tab under a parent that hands it the cluster, as the cluster page does. */
function renderLogsTab(url: string) {
  const context: ClusterContext = { cluster, clusterRef: { account: 'acme', id: 5 } };
  const router = createMemoryRouter(
    [
      {
        path: '/clusters/:clusterId',
        element: <Outlet context={context} />,
        children: [{ path: 'logs', element: <ClusterLogsTab /> }],
      },
    ],
    { initialEntries: [url] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return () => new URLSearchParams(router.state.location.search);
}

describe('Logs tab URL state', () => {
  it('reads its filters from the URL', () => {
    renderLogsTab('/clusters/5/logs?account=acme&q=worker&dask=0');
    expect(screen.getByRole('textbox', { name: 'Filter pattern' })).toHaveValue('worker');
    expect(screen.getByRole('switch', { name: 'Dask' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'System' })).toBeChecked();
  });

  it('keeps a source toggled while the typed pattern was still on its way to the URL', async () => {
    const query = renderLogsTab('/clusters/5/logs?account=acme');
    fireEvent.change(screen.getByRole('textbox', { name: 'Filter pattern' }), {
      target: { value: 'Scheduler at' },
    });
    // Before the typing pause has passed, the reader hides Dask lines.
    fireEvent.click(screen.getByRole('switch', { name: 'Dask' }));
    await waitFor(() => expect(query().get('q')).toBe('Scheduler at'));
    expect(query().get('dask')).toBe('0');
    expect(query().get('account')).toBe('acme');
  });
});
