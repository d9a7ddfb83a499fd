import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { ClusterSummary } from '@/data/clusters/clusters-paginate-query';
import { ClusterFilters } from '@/features/clusters/dashboard/cluster-filters';
import { ClustersTable } from '@/features/clusters/dashboard/clusters-table';
import { useDashboardSearch } from '@/features/clusters/dashboard/search-params';
import { type SignedIn, SignedInContext } from '@/lib/signed-in';
import { stubApi } from '@/test/api-stub';
import { renderPage } from '@/test/render';

const workspace = {
  id: 7,
  slug: 'acme',
  name: 'Acme',
  organization: { id: 3, name: 'Acme Inc', isPersonal: false },
};

/** Ada, a plain member of Acme (no admin rights anywhere). */
const ada = {
  user: { id: 1, username: 'ada', isStaff: false },
  workspaceMemberships: [{ id: 1, account: workspace, isAdmin: false, isDefaultAccount: true }],
  organizationMemberships: [{ id: 1, organizationId: 3, role: 'member' }],
} as unknown as SignedIn;

function cluster(id: number, name: string, state: string, creatorId: number): ClusterSummary {
  const now = new Date().toISOString();
  return {
    id,
    name,
    created: now,
    updated: now,
    currentState: { state, reason: '', updated: now },
    desiredWorkers: 2,
    readyWorkers: state === 'ready' ? 2 : 0,
    creator: { id: creatorId, username: creatorId === 1 ? 'ada' : 'grace' },
    account: { id: workspace.id, slug: workspace.slug, name: workspace.name },
    tags: {},
    backendType: 'in_process',
    schedulerAddress: null,
    idleTimeout: 1200,
  } as ClusterSummary;
}

const clusters = [
  cluster(11, 'mine-ready', 'ready', 1),
  cluster(12, 'theirs-ready', 'ready', 2),
  cluster(13, 'mine-stopped', 'stopped', 1),
];

/** The Dashboard's filters and table wired to the URL exactly as ClustersPage wires them. */
function Dashboard() {
  const { search, setPage, setPageSize, setFilters, setOrder } = useDashboardSearch();
  return (
    <SignedInContext.Provider value={ada}>
      <ClusterFilters
        filters={search.filters}
        tagScope={{}}
        onChange={setFilters}
        problems={search.problems}
      />
      <ClustersTable
        clusters={clusters}
        total={120}
        page={search.page}
        pageSize={search.pageSize}
        onPageChange={setPage}
        onPageSizeChange={setPageSize}
        order={search}
        onOrder={setOrder}
        loading={false}
        showWorkspace={false}
        empty="No clusters"
      />
    </SignedInContext.Provider>
  );
}

function renderDashboard(url = '/clusters') {
  const view = renderPage(<Dashboard />, { url });
  const query = () => new URLSearchParams(view.router.state.location.search);
  const filters = () => JSON.parse(query().get('filters') ?? '[]');
  return { ...view, query, filters };
}

function typeFilter(text: string) {
  const input = screen.getByRole('combobox', { name: 'Filter clusters' });
  fireEvent.change(input, { target: { value: text } });
  fireEvent.submit(input.closest('form')!);
}

describe('Dashboard filters and URL state', () => {
  it('puts a typed filter in the URL, shows it as a chip, and goes back to page 0', async () => {
    const { query, filters } = renderDashboard('/clusters?page=2&account=acme');
    typeFilter('state:ready');
    await waitFor(() => expect(filters()).toEqual([['state', 'ready']]));
    expect(query().get('page')).toBeNull();
    expect(query().get('account')).toBe('acme');
    expect(screen.getByRole('list', { name: 'Active filters' })).toHaveTextContent('state: ready');

    typeFilter('nightly');
    typeFilter('tag:team:ml');
    await waitFor(() =>
      expect(filters()).toEqual([
        ['state', 'ready'],
        ['name', 'nightly'],
        ['tag', 'team:ml'],
      ]),
    );
    expect(screen.getByRole('combobox', { name: 'Filter clusters' })).toHaveValue('');
  });

  it("refuses an unknown key with '{key} is not a valid search term' and leaves the URL alone", async () => {
    const { query } = renderDashboard('/clusters?page=1');
    typeFilter('region:eu');
    expect(await screen.findByText('region is not a valid search term')).toBeInTheDocument();
    expect(query().get('filters')).toBeNull();
    expect(query().get('page')).toBe('1');
  });

  it('shows problems with the filters a link carried', () => {
    const filters = encodeURIComponent(JSON.stringify([['owner', 'x']]));
    renderDashboard(`/clusters?filters=${filters}`);
    expect(screen.getByText('owner is not a valid search term')).toBeInTheDocument();
  });

  it('toggles "Mine" and removes chips one by one or all at once', async () => {
    const filters = encodeURIComponent(JSON.stringify([['state', 'ready']]));
    const view = renderDashboard(`/clusters?filters=${filters}`);
    fireEvent.click(screen.getByRole('button', { name: 'Mine' }));
    await waitFor(() =>
      expect(view.filters()).toEqual([
        ['state', 'ready'],
        ['mine', 'true'],
      ]),
    );
    expect(screen.getByRole('button', { name: 'Mine' })).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(screen.getByRole('button', { name: 'Remove filter state: ready' }));
    await waitFor(() => expect(view.filters()).toEqual([['mine', 'true']]));
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(view.query().get('filters')).toBeNull());
  });

  it('sorts from the column headers and pages from the pagination, in the URL', async () => {
    const view = renderDashboard();
    fireEvent.click(screen.getByRole('button', { name: 'Sort by name, ascending' }));
    await waitFor(() => expect(view.query().get('order_by')).toBe('name'));
    expect(view.query().get('order_by_direction')).toBe('asc');
    fireEvent.click(screen.getByRole('button', { name: 'Sort by name, descending' }));
    // Descending is the default direction: it leaves the URL.
    await waitFor(() => expect(view.query().get('order_by_direction')).toBeNull());
    expect(view.query().get('order_by')).toBe('name');

    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(view.query().get('page')).toBe('1'));
    expect(screen.getByText('51–100 of 120')).toBeInTheDocument();
    // The default order leaves the URL.
    fireEvent.click(screen.getByRole('button', { name: 'Sort by created, descending' }));
    await waitFor(() => expect(view.query().get('order_by')).toBeNull());
    expect(view.query().get('page')).toBeNull();
  });

  it("offers Stop only where the caller may stop: their own live clusters, not others' or stopped ones", () => {
    renderDashboard();
    const row = (name: string) => screen.getByRole('link', { name }).closest('tr')!;
    expect(within(row('mine-ready')).getByRole('button', { name: 'Stop mine-ready' })).toBeEnabled();
    expect(within(row('theirs-ready')).getByRole('button', { name: 'Stop theirs-ready' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(within(row('mine-stopped')).getByRole('button', { name: 'Stop mine-stopped' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    // Each name links to the cluster's page in its workspace.
    expect(screen.getByRole('link', { name: 'mine-ready' })).toHaveAttribute(
      'href',
      '/clusters/11?account=acme',
    );
  });

  it('completes tag: from the tags on the clusters of the listed scope: keys, then their values', async () => {
    const api = stubApi({
      'GET /api/v2/tags/labels': { items: [{ key: 'team', system: false, cluster_count: 3 }], count: 1 },
      'GET /api/v2/tags/values': {
        items: [{ key: 'team', value: 'ml', system: false, cluster_count: 2 }],
        count: 1,
      },
    });
    const { container } = renderPage(
      <ClusterFilters filters={[]} tagScope={{ account: 'acme' }} onChange={() => undefined} />,
    );
    const input = screen.getByRole('combobox', { name: 'Filter clusters' });
    const options = () =>
      Array.from(container.querySelectorAll(`datalist#${input.getAttribute('list')} option`)).map(
        (option) => (option as HTMLOptionElement).value,
      );
    // Only a tag is completed.
    fireEvent.change(input, { target: { value: 'nightly' } });
    fireEvent.change(input, { target: { value: 'tag:te' } });
    await waitFor(() => expect(options()).toEqual(['tag:team']));
    expect(api.callsTo('GET', '/api/v2/tags/labels')).toHaveLength(1);
    expect(Object.fromEntries(api.callsTo('GET', '/api/v2/tags/labels')[0]!.query)).toMatchObject({
      account: 'acme',
      starts_with: 'te',
    });
    fireEvent.change(input, { target: { value: 'tag:team:m' } });
    await waitFor(() => expect(options()).toEqual(['tag:team:ml']));
    expect(Object.fromEntries(api.callsTo('GET', '/api/v2/tags/values')[0]!.query)).toMatchObject({
      account: 'acme',
      key: 'team',
      starts_with: 'm',
    });
  });
});
