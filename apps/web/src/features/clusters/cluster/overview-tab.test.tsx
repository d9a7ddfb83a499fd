import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import * as React from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { TooltipProvider } from '@/components/ui/tooltip';
import type { ClusterDetails } from '@/data/clusters/cluster-details-query';
import type { ClusterContext } from '@/features/clusters/cluster/cluster-context';
import { ClusterOverviewTab } from '@/features/clusters/cluster/overview-tab';
import { stubApi } from '@/test/api-stub';

const T = (second: number) => `2026-11-25T10:00:${String(second).padStart(2, '0')}.000000+00:00`;
const record = (id: number, state: string, second: number, reason = '') => ({
  id,
  updated: T(second),
  state,
  reason,
  stateful_object: { id: 1, name: 'etl' },
});

function details(state: string, second: number): ClusterDetails {
  return {
    id: 1,
    name: 'etl',
    created: T(0),
    updated: T(second),
    currentState: { state, reason: '', updated: T(second) },
    desiredWorkers: 1,
    readyWorkers: state === 'ready' ? 1 : 0,
    creator: { id: 1, username: 'ada' },
    account: { id: 3, slug: 'ada', name: 'ada' },
    tags: {},
    backendType: 'in_process',
    schedulerAddress: null,
    idleTimeout: 1200,
    stopTimers: state === 'stopped' ? [] : [{ timer: 'idle_timeout', seconds: 1200, at: null }],
    scheduler: null,
    workers: [],
    senvAlias: null,
  } as unknown as ClusterDetails;
}

/** The cluster page as the tab sees it: the cluster the page polled, handed down as outlet context. */
let setCluster: (cluster: ClusterDetails) => void = () => {};
function ClusterPage({ initial }: { initial: ClusterDetails }) {
  const [cluster, set] = React.useState(initial);
  setCluster = set;
  const context: ClusterContext = { cluster, clusterRef: { account: 'ada', id: 1 } };
  return <Outlet context={context} />;
}

function renderOverview(initial: ClusterDetails) {
  const router = createMemoryRouter(
    [
      {
        path: '/clusters/:clusterId',
        element: <ClusterPage initial={initial} />,
        children: [{ index: true, element: <ClusterOverviewTab /> }],
      },
    ],
    { initialEntries: ['/clusters/1'] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return { update: (cluster: ClusterDetails) => act(() => setCluster(cluster)) };
}

const timelineStates = () =>
  within(screen.getByRole('list', { name: 'State timeline' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('[data-slot=state-chip]')?.textContent);

describe('the state timeline', () => {
  afterEach(() => vi.restoreAllMocks());

  it('follows the header at once: Ready as soon as the header says Ready, Stopped once stopped', async () => {
    let history = [record(1, 'pending', 0, 'Requested by ada'), record(2, 'starting', 1)];
    stubApi({
      'GET /api/v2/clusters/account/ada/id/1/states': () => ({ body: { cluster: history } }),
      'GET /api/v2/clusters/account/ada/id/1/alerts': [],
    });
    const page = renderOverview(details('starting', 1));
    await waitFor(() => expect(timelineStates()).toEqual(['Pending', 'Starting']));

    // The page's next read of the cluster says ready: the timeline reads its history again now,
    // not at its next poll (10 s once ready).
    history = [...history, record(3, 'ready', 5)];
    page.update(details('ready', 5));
    await waitFor(() => expect(timelineStates()).toEqual(['Pending', 'Starting', 'Ready']));
    // What will stop it by itself.
    const stops = within(screen.getByRole('list', { name: 'Stops' }));
    expect(stops.getByText('No work for 20 minutes (idle timeout)')).toBeTruthy();

    // Stopped: the page stops polling, and the timeline still ends where the header does.
    history = [...history, record(4, 'stopping', 8, 'bye'), record(5, 'stopped', 9, 'bye')];
    page.update(details('stopped', 9));
    await waitFor(() =>
      expect(timelineStates()).toEqual(['Pending', 'Starting', 'Ready', 'Stopping', 'Stopped']),
    );
  });
});
