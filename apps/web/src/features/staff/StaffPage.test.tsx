import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { StaffOnly } from '@/components/staff-only';
import { StaffPage } from '@/features/staff/StaffPage';
import {
  interactionsQuery,
  parseInteractionTerm,
  readInteractionFilters,
} from '@/features/staff/search-params';
import { reply, stubApi } from '@/test/api-stub';
import { renderSignedIn, testUser } from '@/test/signed-in';

const staff = { user: testUser({ id: 1, username: 'root', isStaff: true }) };
const items = <T,>(list: T[]) => ({ items: list, count: list.length });

const person = (id: number, username: string, extra: Record<string, unknown> = {}) => ({
  id,
  username,
  email: `${username}@example.com`,
  full_name: `Test ${username}`,
  is_staff: false,
  is_active: true,
  locked_out: false,
  should_see_notebook_page: false,
  email_verified: true,
  date_joined: '2026-11-20T10:00:00+00:00',
  last_login: null,
  ...extra,
});

describe('the staff area', () => {
  afterEach(() => vi.restoreAllMocks());

  it('tells everyone else exactly what the spec says', () => {
    stubApi({});
    renderSignedIn(<StaffOnly />, { routes: [] });
    expect(
      screen.getByText(
        'Sorry, only cumulus admins can view this page. If this is a mistake, please contact cumulus support.',
      ),
    ).toBeInTheDocument();
  });

  it('finds users, locks, unlocks and sets the staff flag (never for oneself) and the Notebooks page', async () => {
    const api = stubApi({
      'GET /api/v2/staff/users': (_request: Request, url: URL) => ({
        body:
          url.searchParams.get('search') === 'gr'
            ? items([person(3, 'grace', { locked_out: true })])
            : items([
                person(1, 'root', { is_staff: true }),
                person(2, 'ada'),
                person(3, 'grace', { locked_out: true }),
              ]),
      }),
      'PATCH /api/v2/staff/users/2': async (request: Request) => ({
        body: person(2, 'ada', await request.json()),
      }),
      'POST /api/v2/staff/users/3/unlock': { detail: 'Unlocked grace.', cleared: 5 },
    });
    renderSignedIn(<StaffPage />, { url: '/staff', signedIn: staff });
    const row = (name: string) =>
      screen.getByText(name, { selector: 'span.font-medium' }).closest('tr') as HTMLElement;
    await screen.findByText('ada', { selector: 'span.font-medium' });
    expect(within(row('root')).getByRole('button', { name: 'Lock root' })).toBeDisabled();
    expect(within(row('root')).getByRole('switch', { name: 'Staff: root' })).toBeDisabled();
    expect(within(row('grace')).getByText('Locked out')).toBeInTheDocument();

    fireEvent.click(within(row('ada')).getByRole('button', { name: 'Lock ada' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/v2/staff/users/2')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/api/v2/staff/users/2')[0]!.body).toEqual({ is_active: false });
    fireEvent.click(within(row('ada')).getByRole('switch', { name: 'Staff: ada' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/v2/staff/users/2')).toHaveLength(2));
    expect(api.callsTo('PATCH', '/api/v2/staff/users/2')[1]!.body).toEqual({ is_staff: true });
    // The Notebooks page: for anyone, oneself included.
    expect(within(row('root')).getByRole('switch', { name: 'Notebooks page: root' })).toBeEnabled();
    fireEvent.click(within(row('ada')).getByRole('switch', { name: 'Notebooks page: ada' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/v2/staff/users/2')).toHaveLength(3));
    expect(api.callsTo('PATCH', '/api/v2/staff/users/2')[2]!.body).toEqual({
      should_see_notebook_page: true,
    });
    fireEvent.click(within(row('grace')).getByRole('button', { name: 'Unlock grace' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/staff/users/3/unlock')).toHaveLength(1));

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search users' }), { target: { value: 'gr' } });
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/v2/staff/users').some((c) => c.query.get('search') === 'gr')).toBe(
        true,
      ),
    );
    await waitFor(() =>
      expect(screen.queryByText('ada', { selector: 'span.font-medium' })).not.toBeInTheDocument(),
    );
  });

  it('lists failed clusters needing attention and marks them seen', async () => {
    const failed = {
      id: 5,
      name: 'etl',
      created: '2026-11-25T10:00:00+00:00',
      updated: '2026-11-25T10:00:00+00:00',
      current_state: {
        state: 'error',
        reason: 'The scheduler exited (1)',
        updated: '2026-11-25T10:01:00+00:00',
      },
      desired_workers: 1,
      ready_workers: 0,
      creator: { id: 2, username: 'ada' },
      account: { id: 3, slug: 'ada', name: 'ada' },
      tags: {},
      backend_type: 'in_process',
      scheduler_address: null,
      idle_timeout: 1200,
      reason: 'The scheduler exited (1)',
      staff_has_seen: false,
      staff_seen_at: null,
      staff_seen_by: null,
    };
    const api = stubApi({
      'GET /api/v2/staff/clusters': items([failed]),
      'POST /api/v2/clusters/account/ada/id/5/staff-has-seen': reply(200, {
        id: 5,
        staff_has_seen: true,
        staff_seen_at: '2026-11-25T10:02:00+00:00',
        staff_seen_by: { id: 1, username: 'root' },
      }),
    });
    renderSignedIn(<StaffPage />, { url: '/staff?tab=clusters', signedIn: staff });
    expect(await screen.findByRole('link', { name: 'etl' })).toHaveAttribute(
      'href',
      '/clusters/5?account=ada',
    );
    expect(screen.getByText('The scheduler exited (1)', { selector: 'td' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Mark seen: etl' }));
    await waitFor(() =>
      expect(
        api.callsTo('POST', '/api/v2/clusters/account/ada/id/5/staff-has-seen')[0]?.query.get('seen'),
      ).toBe('true'),
    );
    expect(api.callsTo('GET', '/api/v2/staff/clusters')[0]!.query.get('seen')).toBe('false');
  });

  it('reads the mail outbox', async () => {
    stubApi({
      'GET /api/v2/staff/emails': items([
        {
          id: 1,
          to: 'ada@example.com',
          subject: 'Verify your email',
          text: 'Open http://x/verify-email-confirm/abc',
          status: 'kept',
          attempts: 0,
          last_error: null,
          created: '2026-11-25T10:00:00+00:00',
          sent_at: null,
        },
      ]),
    });
    renderSignedIn(<StaffPage />, { url: '/staff?tab=mail', signedIn: staff });
    expect(await screen.findByText('Verify your email')).toBeInTheDocument();
    expect(screen.getByText('To ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('kept')).toBeInTheDocument();
    expect(screen.getByText('Open http://x/verify-email-confirm/abc')).toBeInTheDocument();
  });

  it('filters user interactions from the URL and the filter bar', async () => {
    expect(parseInteractionTerm('success:False')).toEqual({ key: 'success', value: 'false' });
    expect(parseInteractionTerm('colour:red')).toEqual({ problem: 'colour is not a valid search term' });
    expect(parseInteractionTerm('version:x')).toEqual({ problem: 'version is a whole number' });
    expect(parseInteractionTerm('Traceback')).toEqual({ key: 'error_message', value: 'Traceback' });
    const { filters } = readInteractionFilters(
      '[["action","cluster-create"],["success","false"],["version","1"]]',
    );
    expect(interactionsQuery(filters, { page: 1, pageSize: 20 })).toEqual({
      offset: 20,
      limit: 20,
      action: 'cluster-create',
      success: false,
      version: 1,
    });

    const api = stubApi({
      'GET /api/v2/interactions/user-interactions': items([
        {
          id: 1,
          timestamp: '2026-11-25T10:00:00+00:00',
          action: 'cluster-create',
          version: 1,
          success: false,
          source: 'python',
          client_version: '0.1.0',
          error_message: 'ValueError: n_workers must be >= 0',
          error_class: 'ValueError',
          additional_text: null,
          additional_data: null,
          user: { id: 2, username: 'ada', email: 'ada@example.com', is_staff: false },
          account: { id: 3, slug: 'ada', name: 'ada' },
          organization: { id: 4, name: 'ada' },
        },
      ]),
      'GET /api/v2/interactions/user-interactions/hello': {
        detail: 'Hello, root.',
        total: 7,
        last_day: 3,
        failures_last_day: 1,
        latest: '2026-11-25T10:00:00+00:00',
      },
      'GET /api/v2/interactions/user-interactions/keys': { items: ['action', 'account'], count: 2 },
      'GET /api/v2/interactions/user-interactions/key/values': { items: ['cluster-create'], count: 1 },
    });
    renderSignedIn(<StaffPage />, {
      url: `/staff?tab=interactions&filters=${encodeURIComponent('[["success","false"]]')}`,
      signedIn: staff,
    });
    expect(
      await screen.findByText('7 interactions recorded; 3 in the last day, 1 of them failed.'),
    ).toBeInTheDocument();
    expect(screen.getByText('cluster-create', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/v2/interactions/user-interactions')[0]!.query.get('success')).toBe(
      'false',
    );

    const input = screen.getByRole('combobox', { name: 'Filter interactions' });
    fireEvent.change(input, { target: { value: 'action:clu' } });
    await waitFor(() =>
      expect(
        api.callsTo('GET', '/api/v2/interactions/user-interactions/key/values')[0]?.query.get('key'),
      ).toBe('action'),
    );
    fireEvent.change(input, { target: { value: 'action:cluster-create' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    await waitFor(() =>
      expect(
        api
          .callsTo('GET', '/api/v2/interactions/user-interactions')
          .some((c) => c.query.get('action') === 'cluster-create' && c.query.get('success') === 'false'),
      ).toBe(true),
    );
    expect(screen.getByRole('button', { name: 'Remove filter action: cluster-create' })).toBeInTheDocument();
  });
});
