import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { ScopeWorkspaceSync } from '@/app/shell/scope-workspace-sync';
import { WorkspaceSwitcher } from '@/app/shell/workspace-switcher';
import { CreateClusterButton } from '@/components/clusters/create-cluster-button';
import { SidebarProvider } from '@/components/ui/sidebar';
import type { WorkspaceMembership } from '@/data/user/workspace-memberships-query';
import { pickScope, type Scope, workspacesInScope } from '@/lib/scopes';
import { useWorkspace } from '@/lib/workspace';
import { stubApi } from '@/test/api-stub';
import { renderSignedIn, testUser } from '@/test/signed-in';

// The dialog loads on first use (its own chunk); loaded here, opening it does not race the
// transform of its module on a busy machine.
beforeAll(() => import('@/components/clusters/create-cluster-dialog'));

const personal = { id: 3, slug: 'ada', name: 'ada', organization: { id: 2, name: 'ada', isPersonal: true } };
const acmeData = {
  id: 12,
  slug: 'acme-data',
  name: 'acme-data',
  organization: { id: 7, name: 'Acme', isPersonal: false },
};
const memberships = [
  { id: 1, account: personal, isAdmin: true, isDefaultAccount: true },
  { id: 2, account: acmeData, isAdmin: false, isDefaultAccount: false },
] as unknown as WorkspaceMembership[];

const scope = (type: string, id: number | string, name: string, extra: Partial<Scope> = {}): Scope =>
  ({ type, id, name, slug: null, email: null, workspaceNames: [], organizationId: null, ...extra }) as Scope;
const wire = (s: Scope) => ({
  type: s.type,
  id: s.id,
  name: s.name,
  slug: s.slug,
  email: s.email,
  workspace_names: s.workspaceNames,
  organization_id: s.organizationId,
});
const everything = scope('compound', 'everything', 'Everything', { workspaceNames: ['ada', 'acme-data'] });
const acme = scope('organization', 7, 'Acme', { workspaceNames: ['acme-data'], organizationId: 7 });
const labs = scope('organization', 9, 'Labs', { organizationId: 9 });
const VALID = [everything, acme, labs, scope('account', 3, 'ada', { slug: 'ada', organizationId: 2 })];

function SidebarWorkspace() {
  const { workspace } = useWorkspace();
  return <p data-testid="sidebar-workspace">{workspace?.slug}</p>;
}

function Dashboard() {
  return (
    <SidebarProvider>
      <ScopeWorkspaceSync />
      <SidebarWorkspace />
      <WorkspaceSwitcher />
      <CreateClusterButton />
    </SidebarProvider>
  );
}

const render = () =>
  renderSignedIn(<Dashboard />, {
    url: '/clusters',
    signedIn: { user: testUser({ defaultAccount: null }), workspaceMemberships: memberships },
  });

describe('scope, sidebar and Create cluster agree', () => {
  beforeEach(() => {
    pickScope(null);
    window.localStorage.clear();
  });
  afterEach(() => vi.restoreAllMocks());

  it("knows which of the user's workspaces each scope lists", () => {
    const workspaces = [personal, acmeData];
    expect(workspacesInScope(acme, workspaces)).toEqual([acmeData]);
    expect(workspacesInScope(labs, workspaces)).toEqual([]);
    expect(workspacesInScope(everything, workspaces)).toEqual(workspaces);
    expect(workspacesInScope(scope('account', 3, 'ada'), workspaces)).toEqual([personal]);
    expect(workspacesInScope(scope('user', 1, 'ada'), workspaces)).toEqual(workspaces);
  });

  it('picking an organization (on the Team page) moves the sidebar there, and Create cluster creates there', async () => {
    const api = stubApi({
      'GET /api/v2/users/user/valid-scopes': VALID.map(wire),
      'GET /api/v2/software-environment/account/acme-data/alias': { items: [], count: 0 },
      'POST /api/v2/clusters/account/acme-data/': () => ({ status: 201, body: { id: 77, existing: false } }),
    });
    pickScope(acme);
    render();
    await waitFor(() => expect(screen.getByTestId('sidebar-workspace')).toHaveTextContent('acme-data'));
    expect(screen.getByRole('button', { name: /^Workspace: acme-data/ })).toHaveTextContent('acme-dataAcme');

    fireEvent.click(screen.getByRole('button', { name: 'Create cluster' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create cluster' });
    // Only the workspace the Acme list shows is offered, and it is the one shown.
    expect(within(dialog).getByRole('combobox', { name: 'Workspace' })).toHaveTextContent('acme-data (Acme)');
    expect(within(dialog).getByRole('combobox', { name: 'Workspace' })).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'etl' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create cluster' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/v2/clusters/account/acme-data/')).toHaveLength(1), {
      timeout: 5000,
    });
    expect(api.callsTo('POST', '/api/v2/clusters/account/ada/')).toHaveLength(0);
  });

  it("shows a scope with none of the user's workspaces in the sidebar, and says why Create cluster is unavailable", async () => {
    stubApi({ 'GET /api/v2/users/user/valid-scopes': VALID.map(wire) });
    pickScope(labs);
    render();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create cluster' })).toBeDisabled());
    // Not the personal workspace the sidebar showed before: the organization the lists show.
    const sidebar = screen.getByRole('button', { name: /^Organization: Labs/ });
    expect(sidebar).toHaveTextContent('LabsNo workspace of yours');
    expect(screen.queryByRole('button', { name: /^Workspace: / })).not.toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Create cluster' }).closest('[data-disabled-reason]'),
    ).toHaveAttribute(
      'data-disabled-reason',
      'None of your workspaces is in Labs: pick another scope to create a cluster.',
    );
  });

  it("offers every workspace of Everything, the sidebar's first", async () => {
    stubApi({
      'GET /api/v2/users/user/valid-scopes': VALID.map(wire),
      'GET /api/v2/software-environment/account/ada/alias': { items: [], count: 0 },
    });
    pickScope(everything);
    render();
    await waitFor(() => expect(screen.getByTestId('sidebar-workspace')).toHaveTextContent('ada'));
    fireEvent.click(screen.getByRole('button', { name: 'Create cluster' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create cluster' });
    expect(within(dialog).getByRole('combobox', { name: 'Workspace' })).toHaveTextContent('ada');
    expect(within(dialog).getByRole('combobox', { name: 'Workspace' })).toBeEnabled();
  });
});
