import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import type { ClusterDetails } from '@/data/clusters/cluster-details-query';
import type { ClusterContext } from '@/features/clusters/cluster/cluster-context';
import { ClusterMetricsTab } from '@/features/clusters/cluster/metrics-tab';
import { stubApi } from '@/test/api-stub';

// jsdom draws nothing (uPlot draws on a canvas): a 2D context that takes every call (uPlot measures text with it).
beforeAll(() => {
  const context = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) =>
      key in target ? target[key] : key === 'measureText' ? () => ({ width: 20 }) : () => undefined,
    set: (target, key, value) => {
      target[key] = value;
      return true;
    },
  });
  // Nor paths: one that takes every call.
  vi.stubGlobal(
    'Path2D',
    class {
      constructor() {
        // biome-ignore lint/correctness/noConstructorReturn: a stand-in that takes any call.
        return new Proxy(this, { get: () => () => undefined });
      }
    },
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => context as unknown as CanvasRenderingContext2D,
  );
});

const cluster = {
  id: 1,
  name: 'etl',
  currentState: { state: 'stopped', reason: '', updated: '2026-11-25T10:00:00Z' },
} as unknown as ClusterDetails;

function ClusterPage() {
  const context: ClusterContext = { cluster, clusterRef: { account: 'ada', id: 1 } };
  return <Outlet context={context} />;
}

const GIB = 1024 ** 3;
const answer = (query: string) => ({
  query,
  unit: '',
  help: '',
  start: 1000,
  end: 1060,
  step: 15,
  series:
    query === 'memory'
      ? [
          {
            metric: { instance: 'etl-scheduler' },
            values: [
              [1000, GIB],
              [1015, 1.5 * GIB],
            ],
          },
          // The worker reports on its own clock: one sample the scheduler has none at.
          {
            metric: { instance: 'etl-worker' },
            values: [
              [1015, 0.5 * GIB],
              [1030, 2 * GIB],
            ],
          },
        ]
      : [],
});

describe('the Metrics tab', () => {
  it('charts each metric with its newest values, and gives the numbers as a table', async () => {
    stubApi({
      'GET /api/v2/metrics/account/ada/cluster/1': (_request: Request, url: URL) => ({
        body: answer(url.searchParams.get('query')!),
      }),
    });
    const router = createMemoryRouter(
      [
        {
          path: '/clusters/:id',
          element: <ClusterPage />,
          children: [{ path: 'metrics', element: <ClusterMetricsTab /> }],
        },
      ],
      { initialEntries: ['/clusters/1/metrics'] },
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const memory = await screen.findByRole('region', { name: 'Memory per instance' });
    const legend = await within(memory).findAllByRole('listitem');
    expect(legend.map((item) => item.textContent)).toEqual([
      'etl-schedulernow 1.5 GiB',
      'etl-workernow 2.0 GiB',
    ]);
    expect(memory.querySelector('canvas')).not.toBeNull();
    expect(
      within(screen.getByRole('region', { name: 'CPU per instance' })).getByText('No samples in this range'),
    ).toBeInTheDocument();

    await userEvent.click(within(memory).getByRole('button', { name: 'Show as table' }));
    const table = within(memory).getByRole('table', { name: 'Memory per instance' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) =>
        within(row)
          .queryAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Time', 'etl-scheduler', 'etl-worker']);
    // One row per time either series has; a dash where one has no sample.
    expect(rows.slice(1)).toEqual([
      ['1.0 GiB', '–'],
      ['1.5 GiB', '512.0 MiB'],
      ['–', '2.0 GiB'],
    ]);
    expect(memory.querySelector('canvas')).toBeNull();
    await userEvent.click(within(memory).getByRole('button', { name: 'Show as chart' }));
    expect(memory.querySelector('canvas')).not.toBeNull();
  });
});
