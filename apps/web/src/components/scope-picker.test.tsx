import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScopePicker } from '@/components/scope-picker';
import type { Scope } from '@/data/scopes/valid-scopes-query';
import { pickScope, useScope } from '@/lib/scopes/current-scope';
import { SCOPE_SEARCH_DEBOUNCE_MS, scopeKey } from '@/lib/scopes/scope';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn, testUser } from '@/test/signed-in';

const wire = (type: string, id: number | string, name: string, extra: Record<string, unknown> = {}) => ({
  type,
  id,
  name,
  slug: null,
  email: null,
  workspace_names: [],
  organization_id: null,
  ...extra,
});

const VALID = [
  wire('compound', 'everything', 'Everything', { workspace_names: ['acme-data', 'ada-personal'] }),
  wire('organization', 7, 'Acme', { workspace_names: ['acme-data'], organization_id: 7 }),
  wire('account', 12, 'acme-data', { slug: 'acme-data', workspace_names: ['acme-data'], organization_id: 7 }),
  wire('user', 1, 'ada', { email: 'ada@example.com' }),
];

function CurrentScope() {
  const { scope } = useScope();
  return <p data-testid="current">{scope ? scopeKey(scope) : 'none'}</p>;
}

function Page() {
  return (
    <>
      <ScopePicker />
      <CurrentScope />
    </>
  );
}

describe('ScopePicker', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('lists the valid scopes by kind and picks one for every page', async () => {
    stubApi({ 'GET /api/v2/users/user/valid-scopes': VALID });
    renderSignedIn(<Page />);
    await waitFor(() => expect(screen.getByTestId('current')).toHaveTextContent('compound:everything'));

    fireEvent.click(screen.getByRole('combobox', { name: 'Scope: Everything' }));
    const groups = screen.getAllByRole('group').map((group) => group.getAttribute('aria-label'));
    expect(groups).toEqual(['Everything', 'Organizations', 'Workspaces', 'User']);
    expect(screen.getByRole('option', { name: /ada \(me\)/ })).toHaveTextContent('ada@example.com');
    const organizations = screen.getByRole('group', { name: 'Organizations' });
    expect(within(organizations).getByRole('option')).toHaveTextContent('1 workspace');
    fireEvent.click(within(organizations).getByRole('option', { name: /Acme/ }));

    expect(screen.getByTestId('current')).toHaveTextContent('organization:7');
    expect(screen.getByRole('combobox', { name: 'Scope: Acme' })).toBeInTheDocument();
  });

  it('filters as the user types, once typing pauses for 150 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    stubApi({ 'GET /api/v2/users/user/valid-scopes': VALID });
    renderSignedIn(<Page />);
    await vi.waitFor(() => expect(screen.getByTestId('current')).toHaveTextContent('compound:everything'));
    fireEvent.click(screen.getByRole('combobox', { name: 'Scope: Everything' }));
    fireEvent.change(screen.getByPlaceholderText('Search scopes'), { target: { value: 'acme-d' } });

    act(() => vi.advanceTimersByTime(SCOPE_SEARCH_DEBOUNCE_MS - 10));
    expect(screen.getAllByRole('option')).toHaveLength(4);
    act(() => vi.advanceTimersByTime(20));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      expect.stringContaining('acme-data'),
    ]);
    // Enter picks the highlighted option.
    fireEvent.keyDown(screen.getByPlaceholderText('Search scopes'), { key: 'Enter' });
    expect(screen.getByTestId('current')).toHaveTextContent('account:12');
  });

  it('falls back to Everything for a non-staff user whose scope is gone', async () => {
    stubApi({ 'GET /api/v2/users/user/valid-scopes': VALID });
    pickScope({ ...(VALID[1] as unknown as Scope), id: 99, name: 'Left this one' });
    renderSignedIn(<Page />);
    await waitFor(() => expect(screen.getByTestId('current')).toHaveTextContent('compound:everything'));
  });

  it('offers staff their lists and a search over every organization', async () => {
    const api = stubApi({
      'GET /api/v2/users/user/valid-scopes': [
        ...VALID,
        wire('custom_staff', 'all', 'All workspaces (staff)'),
        wire('custom_staff', 'group-3', 'Design partners', { workspace_names: ['x', 'y'] }),
      ],
      'GET /api/v2/users/organizations/staff-list-values': (_request: Request, url: URL) => ({
        body: {
          items: url.searchParams.get('starts_with') === 'glo' ? [{ id: 40, name: 'Globex' }] : [],
          count: 1,
        },
      }),
    });
    renderSignedIn(<Page />, { signedIn: { user: testUser({ isStaff: true }) } });
    fireEvent.click(await screen.findByRole('combobox', { name: 'Scope: Everything' }));
    expect(screen.getByRole('group', { name: 'Staff lists' })).toHaveTextContent('Design partners');

    fireEvent.change(screen.getByPlaceholderText('Search scopes and organizations'), {
      target: { value: 'glo' },
    });
    fireEvent.click(await screen.findByRole('option', { name: /Globex/ }));
    expect(screen.getByTestId('current')).toHaveTextContent('organization:40');
    // One search for the settled text, not one per keystroke.
    expect(api.callsTo('GET', '/api/v2/users/organizations/staff-list-values')).toHaveLength(1);
  });
});
