import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { prefetchDashboard } from '@/features/clusters/dashboard/prefetch';
import { session } from '@/lib/api/session';
import { pickScope } from '@/lib/scopes';
import { stubApi } from '@/test/api-stub';

const account = (id: number, slug: string) => ({
  id,
  slug,
  name: slug,
  organization: { id: 100 + id, name: slug, is_personal: false },
});
const scopes = [
  { type: 'compound', id: 'everything', name: 'Everything', slug: null },
  { type: 'account', id: 3, name: 'ada', slug: 'ada' },
  { type: 'account', id: 7, name: 'acme', slug: 'acme' },
  { type: 'organization', id: 107, name: 'Acme Inc', slug: null },
];
const dashboardApi = () =>
  stubApi({
    'GET /api/v2/user/me': { id: 1, username: 'ada', is_staff: false, default_account: { slug: 'ada' } },
    'GET /api/v2/user/me/memberships': [
      { id: 1, account: account(3, 'ada'), is_admin: true, is_default_account: true },
      { id: 2, account: account(7, 'acme'), is_admin: false, is_default_account: false },
    ],
    'GET /api/v2/users/user/valid-scopes': scopes,
    'GET /api/v2/clusters/paginate': { items: [], count: 0 },
  });

/** The clusters list calls made, as their query strings. */
const listCalls = (api: ReturnType<typeof stubApi>) =>
  api.callsTo('GET', '/api/v2/clusters/paginate').map((call) => call.query.toString());

describe("the Dashboard's first page, asked for as it opens", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    session.clear();
    pickScope(null);
    window.localStorage.clear();
  });

  it("asks for the page the URL shows, in the scope the page will show (the current workspace's)", async () => {
    const api = dashboardApi();
    session.signIn('f3a9c2');
    const queryClient = new QueryClient();
    await prefetchDashboard(queryClient, new URL('http://console.test/clusters'));
    expect(listCalls(api)).toEqual([
      'account=ada&offset=0&limit=50&order_by=created&order_by_direction=desc',
    ]);

    await prefetchDashboard(
      new QueryClient(),
      new URL(
        'http://console.test/clusters?account=acme&page=2&pagesize=25&filters=[{"key":"state","value":"ready"}]',
      ),
    );
    expect(listCalls(api)[1]).toBe(
      'account=acme&offset=50&limit=25&order_by=created&order_by_direction=desc&state=ready',
    );
  });

  it('follows the scope the user picked', async () => {
    const api = dashboardApi();
    session.signIn('f3a9c2');
    pickScope({ type: 'organization', id: 107, name: 'Acme Inc', slug: null } as never);
    await prefetchDashboard(new QueryClient(), new URL('http://console.test/clusters'));
    expect(listCalls(api)).toEqual([
      'organization=107&offset=0&limit=50&order_by=created&order_by_direction=desc',
    ]);
  });

  it('asks nothing on the Jobs tab, or signed out', async () => {
    const api = dashboardApi();
    await prefetchDashboard(new QueryClient(), new URL('http://console.test/clusters'));
    session.signIn('f3a9c2');
    await prefetchDashboard(new QueryClient(), new URL('http://console.test/clusters?tab=jobs'));
    expect(api.calls).toEqual([]);
  });
});
