import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotebooksPage } from '@/features/notebooks/NotebooksPage';
import { pickScope } from '@/lib/scopes';
import type { SignedIn } from '@/lib/signed-in';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn } from '@/test/signed-in';

const VALID = [
  {
    type: 'compound',
    id: 'everything',
    name: 'Everything',
    slug: null,
    email: null,
    workspace_names: ['ada'],
    organization_id: null,
  },
];

const notebook = (id: number, name: string, state: string, creator: string) => ({
  id,
  name,
  created: '2026-11-25T10:00:00+00:00',
  updated: '2026-11-25T10:00:00+00:00',
  current_state: { state, reason: '', updated: '2026-11-25T10:00:00+00:00' },
  desired_workers: 1,
  ready_workers: 1,
  creator: { id: creator === 'ada' ? 1 : 2, username: creator },
  account: { id: 3, slug: 'ada', name: 'ada' },
  tags: { 'cumulus-cluster-type': 'notebook' },
  backend_type: 'in_process',
  scheduler_address: null,
  idle_timeout: 1200,
});

describe('Notebooks', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it('lists the notebook clusters of the scope with state, creator, Open (Jupyter) and Stop', async () => {
    const api = stubApi({
      'GET /api/v2/users/user/valid-scopes': VALID,
      'GET /api/v2/clusters/paginate-notebook': {
        items: [notebook(9, 'analysis', 'ready', 'ada'), notebook(8, 'old-notes', 'stopped', 'grace')],
        count: 2,
      },
    });
    renderSignedIn(<NotebooksPage />, { url: '/notebooks?page=0&pagesize=20' });
    const row = (await screen.findByRole('link', { name: 'analysis' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Ready')).toBeInTheDocument();
    expect(within(row).getByText('ada', { selector: 'td' })).toBeInTheDocument();
    const open = within(row).getByRole('link', { name: 'Open analysis in Jupyter' });
    expect(open).toHaveAttribute('href', '/notebooks/9/open?account=ada');
    expect(open).toHaveAttribute('target', '_blank');
    expect(within(row).getByRole('button', { name: 'Stop analysis' })).toBeEnabled();
    const stopped = screen.getByRole('link', { name: 'old-notes' }).closest('tr') as HTMLElement;
    expect(within(stopped).getByRole('button', { name: 'Stop old-notes' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    // Another member's notebook: no Open (its Jupyter is its creator's alone).
    expect(within(stopped).queryByRole('link', { name: /Open old-notes/ })).toBeNull();
    expect(within(stopped).getByText('Not yours to open')).toBeInTheDocument();
    const [call] = api.callsTo('GET', '/api/v2/clusters/paginate-notebook');
    expect(Object.fromEntries(call!.query)).toEqual({
      compound_scope: 'everything',
      offset: '0',
      limit: '20',
    });
  });

  it('starts a new notebook with a Dask worker for its Client() by default', async () => {
    stubApi({
      'GET /api/v2/users/user/valid-scopes': VALID,
      'GET /api/v2/clusters/paginate-notebook': { items: [], count: 0 },
    });
    const user = userEvent.setup();
    const ada = { id: 3, slug: 'ada', name: 'ada', organization: { id: 4, name: 'ada', isPersonal: true } };
    const membership = { id: 1, account: ada, isAdmin: true, isDefaultAccount: true };
    renderSignedIn(<NotebooksPage />, {
      url: '/notebooks',
      signedIn: { workspaceMemberships: [membership] } as unknown as Partial<SignedIn>,
    });
    await user.click((await screen.findAllByRole('button', { name: 'New notebook' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New notebook' });
    expect(within(dialog).getByRole('combobox', { name: 'Workers' })).toHaveTextContent('1');
  });

  it('explains how to start one when there is none', async () => {
    stubApi({
      'GET /api/v2/users/user/valid-scopes': VALID,
      'GET /api/v2/clusters/paginate-notebook': { items: [], count: 0 },
    });
    renderSignedIn(<NotebooksPage />, { url: '/notebooks' });
    expect(await screen.findByText('No notebook clusters in Everything yet')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByText(/cumulus notebook start --name my-notebook --sync/)).toBeInTheDocument(),
    );
  });
});
